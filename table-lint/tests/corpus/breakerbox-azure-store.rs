//! Breakerbox (Java, com.microsoft.azure.storage.table): Yammer's dashboard and configuration
//! service for Hystrix/Tenacity circuit breakers, Azure Table store. Source:
//! https://github.com/yammer/breakerbox/blob/ac6960bf28509fb04198409bdae9b97c0e29e260/breakerbox-azure/src/main/java/com/yammer/breakerbox/azure/AzureStore.java
//! with model/ServiceEntity.java and model/DependencyEntity.java at the same commit.
//!
//! - SERVICE: PartitionKey = service id, RowKey = dependency key (which keys a service uses).
//! - DEPENDENCY: PartitionKey = dependency key, RowKey = `String.valueOf(millis)` of the save,
//!   with the configuration JSON, the user and the service name as properties.
//!
//! retrieveLatest(dependency, service) = allDependenciesFor: the dependency's partition filtered
//! by ServiceName, sorted by time in memory, first taken. It runs for every dependency key on
//! each `/archaius/{service}` poll, on the sync check and on the configure page.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "SERVICE", partition_key = "{service_id}", row_key = "{dependency_id}")]
#[table(rename_all = "PascalCase")]
struct ServiceEntity {
    service_id: String,
    dependency_id: String,
}

#[derive(TableEntity)]
#[table(name = "DEPENDENCY", partition_key = "{dependency_id}", row_key = "{time_stamp:unpadded}")]
#[table(rename_all = "PascalCase")]
struct DependencyEntity {
    dependency_id: String,
    /// `System.currentTimeMillis()` (or the model's DateTime) when the configuration was saved.
    time_stamp: i64,
    /// The TenacityConfiguration as JSON.
    tenacity_configuration_as_string: String,
    user: String,
    service_name: String,
}

/// listDependenciesFor(serviceId): the service's partition.
fn dependencies_of_service(service_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", service_id)).unwrap()
}

/// allDependenciesFor(dependencyId, serviceId), behind retrieveLatest: every saved version of
/// the key, kept if it belongs to the service.
fn configurations_of(dependency_id: &str, service_id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (ServiceName eq '{}')",
        dependency_id, service_id
    ))
    .unwrap()
}

/// getConfiguration(dependencyId, timestamp): one saved version.
fn configuration_at(dependency_id: &str, millis: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (RowKey eq '{}')",
        dependency_id, millis
    ))
    .unwrap()
}

/// ConfigureResource: store(ServiceModel) then store(DependencyModel), two insertOrReplace.
async fn configure<B: Backend>(
    services: &Table<'_, B, ServiceEntity>,
    dependencies: &Table<'_, B, DependencyEntity>,
    link: &ServiceEntity,
    configuration: &DependencyEntity,
) {
    let _ = services.upsert(link).await;
    let _ = dependencies.upsert(configuration).await;
}

/// delete(serviceId, dependencyId) and delete(dependencyId, dateTime): retrieve, then delete.
async fn remove<B: Backend>(
    services: &Table<'_, B, ServiceEntity>,
    dependencies: &Table<'_, B, DependencyEntity>,
    link: &<ServiceEntity as TableEntity>::Key,
    version: &<DependencyEntity as TableEntity>::Key,
) {
    let _ = services.delete(link, IfMatch::Any).await;
    let _ = dependencies.delete(version, IfMatch::Any).await;
}
