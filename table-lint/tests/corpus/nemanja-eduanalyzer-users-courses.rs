//! EduAnalyzer (C#, Service Fabric services, WindowsAzure.Storage tables): a student project in
//! which students upload documents for a course, an LLM scores them, and professors and an
//! administrator manage courses and users (nemanjaASE/CloudProject). Sources (commit
//! a66d81cf960f38a62c4c126f8f633b8f9b0b03a2 of https://github.com/nemanjaASE/CloudProject):
//! https://github.com/nemanjaASE/CloudProject/blob/a66d81cf960f38a62c4c126f8f633b8f9b0b03a2/UserService/UserService.cs,
//! with CourseServic/CourseServic.cs, AnalysisService/AnalysisService.cs,
//! Common/Repositories/TableRepository.cs, Common/Entities/UserEntity.cs, CourseEntity.cs,
//! AnalysisEntity.cs, Common/Mappers/MappingProfile.cs, Common/Enums/UserRoles.cs and
//! Common/Constants/ConfigKeys.cs.
//!
//! Three tables behind one generic repository (TableRepository<T>: InsertOrMerge, Retrieve,
//! Retrieve-then-Delete, a filtered or unfiltered query read to the end, a paged read that walks
//! continuation segments up to the wanted page, and a count that reads every row).
//! - `UsersEdu`: PartitionKey = the role (`Administrator`, `Professor`, `Student`), RowKey = the
//!   e-mail; Id (a new GUID per user, the id every other service uses), names, password hash.
//!   Lookups by Id (GetUserById, GetUserName, UpdateUser, DeleteUser) filter on the Id property
//!   alone; the admin list pages the whole table and counts it; the student list pages the
//!   `Student` partition and counts it. Changing a user's role or e-mail upserts the new row and
//!   then deletes the old one. At start-up the service reads the whole table into a reliable
//!   dictionary, which answers the e-mail lookups by enumerating it.
//! - `CourseEdu`: PartitionKey = the professor's Id, RowKey = a new GUID; Title, Description,
//!   CreatedDate. A professor's courses are paged and counted within the partition; deleting a
//!   course looks it up by `RowKey eq` alone, then deletes it; start-up reads the whole table.
//! - `AnalysisEdu`: PartitionKey = the student's Id, RowKey = the uploaded file's name; the
//!   result (score, status, JSON lists) and CourseId. Adding and updating are a point read and an
//!   InsertOrMerge; deleting reads the whole table and deletes the rows of that user whose
//!   RowKey starts with the file name, one by one; start-up reads the whole table.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// UserRole, written by name as the PartitionKey.
enum UserRole {
    Administrator,
    Professor,
    Student,
}

#[derive(TableEntity)]
#[table(name = "UsersEdu", partition_key = "{role}", row_key = "{email}")]
#[table(rename_all = "PascalCase")]
struct UserEntity {
    role: UserRole,
    #[table(max_len = 254)]
    email: String,
    /// `Guid.NewGuid()` when the user is added; the id the other services know the user by.
    id: Uuid,
    first_name: String,
    last_name: String,
    /// A bcrypt hash.
    password: String,
}

#[derive(TableEntity)]
#[table(name = "CourseEdu", partition_key = "{author_id}", row_key = "{course_id}")]
#[table(rename_all = "PascalCase")]
struct CourseEntity {
    /// The professor's user Id.
    author_id: Uuid,
    /// `Guid.NewGuid()` when the course is added.
    course_id: Uuid,
    title: String,
    description: String,
    created_date: OffsetDateTime,
}

#[derive(TableEntity)]
#[table(name = "AnalysisEdu", partition_key = "{user_id}", row_key = "{file_name}")]
#[table(rename_all = "PascalCase")]
struct AnalysisEntity {
    /// The student's user Id.
    user_id: Uuid,
    /// The uploaded document's file name, as given.
    #[table(max_len = 255)]
    file_name: String,
    potential_improvements_json: Option<String>,
    references_json: Option<String>,
    score: i32,
    /// The AnalysisStatus enum's name.
    status: String,
    #[table(rename = "ProcessTimeS")]
    process_time_s: f64,
    course_id: String,
}

/// UserService: the lookups by the Id property (GetUserById, GetUserName, UpdateUser,
/// DeleteUser all send this filter and take the first row).
async fn user_by_id<B: Backend>(backend: &B, id: &str) {
    let by_id = Query::filter(&format!("Id eq guid'{}'", id)).unwrap();
    let _ = backend.query_page(UserEntity::TABLE, &by_id).await;
}

/// GetUsersPaged / GetStudentsPaged: a page of `Take(pageSize)` segments from the start, and a
/// count that reads every row (selecting only PartitionKey).
async fn user_lists<B: Backend>(backend: &B, page_size: usize) {
    let everyone = Query::all().top(page_size);
    let _ = backend.query_page(UserEntity::TABLE, &everyone).await;
    let count_all = Query::all().select(["PartitionKey"]);
    let _ = backend.query_page(UserEntity::TABLE, &count_all).await;
    let students = Query::filter("PartitionKey eq 'Student'").unwrap().top(page_size);
    let _ = backend.query_page(UserEntity::TABLE, &students).await;
    let count_students = Query::filter("PartitionKey eq 'Student'")
        .unwrap()
        .select(["PartitionKey"]);
    let _ = backend.query_page(UserEntity::TABLE, &count_students).await;
}

/// AddNewUser, and UpdateUser when the role or e-mail changed: the new row, then the old one
/// deleted by the keys the Id lookup found.
async fn user_writes<B: Backend>(
    users: &Table<'_, B, UserEntity>,
    row: &UserEntity,
    old_key: &<UserEntity as TableEntity>::Key,
) {
    let _ = users.upsert(row).await;
    let _ = users.get(old_key).await;
    let _ = users.delete(old_key, IfMatch::Any).await;
}

/// CourseServic: a professor's courses (paged and counted), adding and updating, and
/// DeleteCourse, which finds the course by its RowKey alone although it is given the professor.
async fn courses<B: Backend>(
    backend: &B,
    table: &Table<'_, B, CourseEntity>,
    row: &CourseEntity,
    key: &<CourseEntity as TableEntity>::Key,
    professor: &str,
    course: &str,
    page_size: usize,
) {
    let mine = Query::filter(&format!("PartitionKey eq '{}'", professor))
        .unwrap()
        .top(page_size);
    let _ = backend.query_page(CourseEntity::TABLE, &mine).await;
    let _ = table.upsert(row).await;
    let find = Query::filter(&format!("RowKey eq '{}'", course)).unwrap();
    let _ = backend.query_page(CourseEntity::TABLE, &find).await;
    let _ = table.get(key).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

/// AnalysisService: AddAnalysis / UpdateAnalysis by the keys, and DeleteAnalysis, which reads
/// the whole table and deletes, one by one, the user's rows whose RowKey starts with the file
/// name.
async fn analyses<B: Backend>(
    backend: &B,
    table: &Table<'_, B, AnalysisEntity>,
    row: &AnalysisEntity,
    key: &<AnalysisEntity as TableEntity>::Key,
) {
    let _ = table.get(key).await;
    let _ = table.upsert(row).await;
    let everything = Query::all();
    let _ = backend.query_page(AnalysisEntity::TABLE, &everything).await;
    let _ = table.get(key).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

/// RunAsync of each service: the whole table read into a reliable collection at start-up.
async fn warm_caches<B: Backend>(backend: &B) {
    let everything = Query::all();
    let _ = backend.query_page(UserEntity::TABLE, &everything).await;
    let _ = backend.query_page(CourseEntity::TABLE, &everything).await;
    let _ = backend.query_page(AnalysisEntity::TABLE, &everything).await;
}
