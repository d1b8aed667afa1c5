//! pagoPA Reporting Orgs Enrollment (Java, Spring Boot, azure-storage table SDK): the service
//! that records which public administrations opted in to pagoPA's payment-flow reporting.
//! Sources (commit e0498fc233f9c2243747e1d8d10b81a9056c8885 of
//! https://github.com/pagopa/pagopa-reporting-orgs-enrollment):
//! https://github.com/pagopa/pagopa-reporting-orgs-enrollment/blob/e0498fc233f9c2243747e1d8d10b81a9056c8885/src/main/java/it/gov/pagopa/reportingorgsenrollment/service/EnrollmentsService.java,
//! with entity/OrganizationEntity.java, controller/IEnrollmentsController.java and
//! helm/values-prod.yaml in the same repository.
//!
//! One table (`organizations.table`, `pagopapflowsaorgstable` in production). Every row has
//! PartitionKey = `organization` and RowKey = the organization's fiscal code from the URL, with
//! one property, organizationOnboardingDate (`LocalDateTime.now().toString()`). POST
//! /organizations/{code} inserts the row (a 409 becomes "already enrolled"), DELETE deletes it
//! with ETag `*`, GET /organizations/{code} retrieves it by both keys, and GET /organizations
//! lists `PartitionKey eq 'organization'`, the list the reporting jobs work through.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "organizations", partition_key = "organization", row_key = "{organization_fiscal_code}")]
#[table(rename_all = "camelCase")]
struct Organization {
    /// The administration's fiscal code (codice fiscale, 11 digits for a public body), taken
    /// from the path; the code only checks that it is not blank.
    organization_fiscal_code: String,
    /// ISO local date-time text of the enrollment.
    organization_onboarding_date: String,
}

/// getOrganizations: every enrolled organization.
async fn all_organizations<B: Backend>(backend: &B) {
    let q = Query::filter("PartitionKey eq 'organization'").unwrap();
    let _ = backend.query_page(Organization::TABLE, &q).await;
}

/// getOrganization (retrieve), createOrganization (insert), removeOrganization (delete, `*`).
async fn organization_ops<B: Backend>(
    orgs: &Table<'_, B, Organization>,
    org: &Organization,
    key: &<Organization as TableEntity>::Key,
) {
    let _ = orgs.get(key).await;
    let _ = orgs.insert(org).await;
    let _ = orgs.delete(key, IfMatch::Any).await;
}
