//! Hackleberry course service: the course catalogue of a learning platform's microservice (C#,
//! Azure.Data.Tables, ASP.NET Core). Sources:
//! https://github.com/Hackleberry-group/course-service/blob/ae8d14f19e03cb61c632a9ecf0530165dce04f06/CourseServiceAPI/Services/ExerciseService.cs
//! https://github.com/Hackleberry-group/course-service/blob/5d4d8aa728f8ab0c8d91af394963a1b7c4208deb/CourseServiceAPI/Services/TopicService.cs
//! https://github.com/Hackleberry-group/course-service/blob/5d4d8aa728f8ab0c8d91af394963a1b7c4208deb/CourseServiceAPI/Services/ModuleService.cs
//! and the generic TableStorageQueryService / TableStorageCommandService they call.
//!
//! Modules, topics and exercises each live in a table of their own. Every entity of a table has
//! the same PartitionKey, a constant (`Module`, `TopicEntity`, `ExerciseEntity` in
//! EntityConstants), and the RowKey is a new GUID's text. The parent links are ordinary GUID
//! properties: a topic's `ModuleId`, an exercise's `TopicId`, a module's `CourseId`. Each
//! service offers the same five operations: list every entity (an unfiltered QueryAsync that
//! reads the whole table), get one by id (GetEntity with the constant PartitionKey), create
//! (AddEntity), put by id (read the stored entity, then an ETag-conditioned Replace), delete by
//! id (unconditional DeleteEntity).

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Module", partition_key = "Module", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct Module {
    /// `Guid.NewGuid().ToString()` when created; the id the API addresses it by. The original
    /// keeps it only in the RowKey.
    row_id: Uuid,
    name: String,
    order: i32,
    course_id: Uuid,
}

#[derive(TableEntity)]
#[table(name = "Topic", partition_key = "TopicEntity", row_key = "{row_id}")]
#[table(rename_all = "PascalCase")]
struct Topic {
    /// `Guid.NewGuid().ToString()` in the constructor; the original keeps it only in the RowKey.
    row_id: Uuid,
    name: String,
    module_id: Uuid,
    order: i32,
}

#[derive(TableEntity)]
#[table(name = "Exercise", partition_key = "ExerciseEntity", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Exercise {
    /// `Id = Guid.NewGuid()`, also stored as the property `Id`; the RowKey is its text.
    id: Uuid,
    order: i32,
    is_topic_exam: bool,
    topic_id: Uuid,
}

/// GetModulesAsync / GetTopicsAsync / GetExercisesAsync: `QueryAsync<T>()` with no filter.
fn list_all() -> Query {
    Query::all()
}

/// Get*ByIdAsync: GetEntityAsync(constant, id.ToString()), 404 answered with null.
async fn get_topic<B: Backend>(topics: &Table<'_, B, Topic>, key: &<Topic as TableEntity>::Key) {
    let _ = topics.get(key).await;
}

async fn get_module<B: Backend>(modules: &Table<'_, B, Module>, key: &<Module as TableEntity>::Key) {
    let _ = modules.get(key).await;
}

async fn get_exercise<B: Backend>(exercises: &Table<'_, B, Exercise>, key: &<Exercise as TableEntity>::Key) {
    let _ = exercises.get(key).await;
}

/// Create*Async: AddEntityAsync.
async fn create_topic<B: Backend>(topics: &Table<'_, B, Topic>, topic: &Topic) {
    let _ = topics.insert(topic).await;
}

async fn create_module<B: Backend>(modules: &Table<'_, B, Module>, module: &Module) {
    let _ = modules.insert(module).await;
}

async fn create_exercise<B: Backend>(exercises: &Table<'_, B, Exercise>, exercise: &Exercise) {
    let _ = exercises.insert(exercise).await;
}

/// Put*ByIdAsync -> UpdateEntityAsync: GetEntity at the keys, then UpdateEntity in Replace mode
/// under the caller's ETag (412 turned into an error).
async fn put_topic<B: Backend>(topics: &Table<'_, B, Topic>, key: &<Topic as TableEntity>::Key, topic: &Topic, etag: ETag) {
    let _ = topics.get(key).await;
    let _ = topics.replace(topic, IfMatch::ETag(etag)).await;
}

async fn put_module<B: Backend>(modules: &Table<'_, B, Module>, key: &<Module as TableEntity>::Key, module: &Module, etag: ETag) {
    let _ = modules.get(key).await;
    let _ = modules.replace(module, IfMatch::ETag(etag)).await;
}

async fn put_exercise<B: Backend>(exercises: &Table<'_, B, Exercise>, key: &<Exercise as TableEntity>::Key, exercise: &Exercise, etag: ETag) {
    let _ = exercises.get(key).await;
    let _ = exercises.replace(exercise, IfMatch::ETag(etag)).await;
}

/// Delete*Async: DeleteEntityAsync(constant, id.ToString()), no ETag.
async fn delete_topic<B: Backend>(topics: &Table<'_, B, Topic>, key: &<Topic as TableEntity>::Key) {
    let _ = topics.delete(key, IfMatch::Any).await;
}

async fn delete_module<B: Backend>(modules: &Table<'_, B, Module>, key: &<Module as TableEntity>::Key) {
    let _ = modules.delete(key, IfMatch::Any).await;
}

async fn delete_exercise<B: Backend>(exercises: &Table<'_, B, Exercise>, key: &<Exercise as TableEntity>::Key) {
    let _ = exercises.delete(key, IfMatch::Any).await;
}
