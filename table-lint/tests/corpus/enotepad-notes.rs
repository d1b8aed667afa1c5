//! Online Sharable eNotepad (C#, ASP.NET MVC, WindowsAzure.Storage through the
//! `DataAccess.AzureStorage` package's ExecuteTableManager): a personal notepad whose notes can
//! be opened by anyone who has their link. Sources (commit
//! a5c18bfccff8112b2e3e507ade57d443e334e976 of
//! https://github.com/JicoDotNet/Online-Sharable-eNotepad-AspNet-With-AzureTableStorage):
//! source/EPadPw/Models/Notepad.cs, Controllers/NotesController.cs,
//! Controllers/NoteController.cs, Controllers/AccountController.cs and Classes/GenericLogic.cs.
//!
//! Table `notepad`. PartitionKey = the signed-in user's id, which AccountController makes from
//! the e-mail address configured in web.config with every character that is not a letter or a
//! digit removed (the site has that one user). RowKey = milliseconds since the Unix epoch of the
//! current time shifted to Indian Standard Time (UtcNow + 5:30), written as uppercase hex
//! (`ToString("X")`). NoteUri, the note's public link, starts as the RowKey and can be changed
//! to any free 8-to-32-character name. The note text and its file list live in files on the web
//! server (NotePath, FilesPath); the row holds the subject, the paths and an IsActive flag.
//!
//! Reads: the owner's list is `PartitionKey eq '<user>' and IsActive eq true`; opening a shared
//! note (Pad, anonymous), opening it for editing (Edit) and the link-availability check all ask
//! `RowKey eq '<id>' or NoteUri eq '<id>'` (in either order) with no PartitionKey; renaming the
//! link reads `RowKey eq '<rowkey>'` alone and updates the row it finds. Soft delete reads
//! `PartitionKey eq '<user>' and IsActive eq true and RowKey eq '<id>'`, clears IsActive and
//! writes the row back with InsertEntity. Every id is pasted into the filter unescaped.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "notepad", partition_key = "{user_id}", row_key = "{created_ist_ms:unpadded}")]
struct Notepad {
    /// The configured e-mail with non-alphanumerics stripped; the PartitionKey and a property.
    #[table(rename = "UserId")]
    user_id: String,
    /// `(IstNow.Ticks - 621355968000000000) / 10000`; only in the RowKey in the original, as hex.
    created_ist_ms: i64,
    /// The shareable link name: the RowKey at first, then 8 to 32 of `[A-Za-z0-9_-]`.
    #[table(rename = "NoteUri", max_len = 32)]
    note_uri: String,
    /// `/Note/<RowKey>.txt` on the web server.
    #[table(rename = "NotePath")]
    note_path: String,
    /// `/File/<RowKey>.json` on the web server.
    #[table(rename = "FilesPath")]
    files_path: String,
    #[table(rename = "Subject")]
    subject: String,
    #[table(rename = "IsActive")]
    is_active: bool,
    /// Bound from the form; the text itself goes to NotePath, so this is normally empty.
    #[table(rename = "Note")]
    note: Option<String>,
}

/// NotesController.Index (GET): the owner's active notes.
async fn my_notes<B: Backend>(notes: &Table<'_, B, Notepad>, user_id: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}' and IsActive eq true", user_id)).unwrap();
    let _ = notes.query_page(&q, None).await;
}

/// NoteController.Pad: anyone opening a shared link.
async fn open_shared<B: Backend>(notes: &Table<'_, B, Notepad>, id: &str) {
    let q = Query::filter(&format!("RowKey eq '{}' or NoteUri eq '{}'", id, id)).unwrap();
    let _ = notes.query_page(&q, None).await;
}

/// NoteController.Edit (GET) and CheckAvailability (before a link rename).
async fn find_by_link<B: Backend>(notes: &Table<'_, B, Notepad>, id: &str) {
    let q = Query::filter(&format!("NoteUri eq '{}' or RowKey eq '{}'", id, id)).unwrap();
    let _ = notes.query_page(&q, None).await;
}

/// NoteController.UriChange: the row by RowKey alone, then UpdateEntity with the new NoteUri.
async fn rename_link<B: Backend>(notes: &Table<'_, B, Notepad>, row_key: &str, renamed: &Notepad) {
    let q = Query::filter(&format!("RowKey eq '{}'", row_key)).unwrap();
    let _ = notes.query_page(&q, None).await;
    let _ = notes.replace(renamed, IfMatch::Any).await;
}

/// NotesController.Index (POST): a new note.
async fn create_note<B: Backend>(notes: &Table<'_, B, Notepad>, note: &Notepad) {
    let _ = notes.insert(note).await;
}

/// NotesController.Delete: the point read, then the row written back with IsActive false.
async fn soft_delete<B: Backend>(notes: &Table<'_, B, Notepad>, user_id: &str, id: &str, cleared: &Notepad) {
    let q = Query::filter(&format!(
        "PartitionKey eq '{}' and IsActive eq true and RowKey eq '{}'",
        user_id, id
    ))
    .unwrap();
    let _ = notes.query_page(&q, None).await;
    let _ = notes.upsert(cleared).await;
}
