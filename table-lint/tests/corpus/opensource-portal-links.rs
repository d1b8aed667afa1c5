//! Microsoft's open source portal (TypeScript, @azure/data-tables): the table that links each
//! employee's corporate identity to their GitHub account. Source:
//! https://github.com/microsoft/opensource-portal/blob/f2390bc4ef00b8fbdd6a6247f2d6639888a3d5bf/lib/linkProviders/table/tableLinkProvider.ts
//! with lib/linkProviders/table/index.ts (table `{prefix}links`, fixed PartitionKey `{prefix}pk`)
//! and middleware/business/links.ts (AddLinkToRequest) at the same commit.
//!
//! createLink: `createEntity` with PartitionKey = the configured `pk`, RowKey = the GitHub user
//! id, and a new `linkid` (randomUUID); a conflict means the GitHub account is already linked.
//! getByThirdPartyId: `getEntity(pk, ghid)`. queryByCorporateId (called by the request
//! middleware to find the signed-in user's link), queryByCorporateUsername,
//! getByThirdPartyUsername and deleteLink's lookup by link id all go through queryLinksTable,
//! which lists the table with the filter `<column> eq '<value>'` and no PartitionKey. getAll and
//! getAllCorporateIds list every row with a select. updateLink replaces the row (no ETag);
//! deleteLink deletes it by PartitionKey and GitHub id.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "links", partition_key = "pk", row_key = "{ghid}")]
#[table(rename_all = "camelCase")]
struct CorporateLink {
    /// The GitHub user id as decimal text (RowKey, and stored again as `ghid`).
    #[table(max_len = 20)]
    ghid: String,
    /// The GitHub login, as GitHub spells it.
    #[table(max_len = 39)]
    ghu: String,
    ghavatar: Option<String>,
    /// The corporate (Entra ID) object id.
    aadoid: String,
    /// The corporate user principal name.
    aadupn: String,
    aadname: String,
    /// Generated when the link is created.
    #[table(as_string)]
    linkid: Uuid,
    service_account: Option<bool>,
    service_account_mail: Option<String>,
    corporate_mail_address: Option<String>,
    corporate_alias: Option<String>,
}

/// getByThirdPartyId: the point read, the only one by key.
fn link_by_github_id(ghid: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'pk' and RowKey eq '{}'", ghid)).unwrap()
}

/// queryByCorporateId: AddLinkToRequest, on requests that need the signed-in user's link, and
/// the people API.
fn links_by_corporate_id(aadoid: &str) -> Query {
    Query::filter(&format!("aadoid eq '{}'", aadoid)).unwrap()
}

/// queryByCorporateUsername: the people API and the admin pages.
fn links_by_corporate_username(aadupn: &str) -> Query {
    Query::filter(&format!("aadupn eq '{}'", aadupn)).unwrap()
}

/// getByThirdPartyUsername: the login lowercased first.
fn link_by_github_login(login_lowercased: &str) -> Query {
    Query::filter(&format!("ghu eq '{}'", login_lowercased)).unwrap()
}

/// deleteLink: finds the row by its link id before deleting it by key.
fn link_by_link_id(linkid: &str) -> Query {
    Query::filter(&format!("linkid eq '{}'", linkid)).unwrap()
}

/// getAll (admin lists, the username refresh job) and getAllCorporateIds.
fn all_links() -> Query {
    Query::all().select(["aadoid", "aadupn", "aadname", "ghu", "ghid", "ghavatar", "serviceAccount", "serviceAccountMail"])
}

/// createLink (insert), updateLink (replace, no ETag), deleteLink (delete).
async fn link_writes<B: Backend>(
    links: &Table<'_, B, CorporateLink>,
    link: &CorporateLink,
    key: &<CorporateLink as TableEntity>::Key,
) {
    let _ = links.insert(link).await;
    let _ = links.replace(link, IfMatch::Any).await;
    let _ = links.delete(key, IfMatch::Any).await;
}
