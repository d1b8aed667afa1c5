//! PalTech-Task (Python, FastAPI, azure-data-tables aio): a resume analyser that extracts a
//! PDF resume, summarises it with a language model and generates interview questions. Sources
//! at commit 41cfe4c366b25e90811f0076df0bd331e375ede6 of https://github.com/Krishna-Mouli/PalTech-Task:
//! https://github.com/Krishna-Mouli/PalTech-Task/blob/41cfe4c366b25e90811f0076df0bd331e375ede6/apis/services/resumeanalyzer/ingestion.py
//! with apis/services/resumeanalyzer/resume.py, apis/services/database/azuretable.py,
//! apis/data/files.py, apis/data/questions.py and apis/APIs/v1/resumeapis.py.
//!
//! TableRepository names each table after its pydantic model plus `sPALTECH`. The ingest route
//! (`/sourceid/{sourceid}/resumeid/{resumeid}/ingest`) upserts (MERGE) one `Files` row, the
//! extracted text and the model's summaries, and one `Questionnaire` row, the question lists by
//! category as JSON, both with PartitionKey = sourceid (the origin of the resume) and RowKey =
//! resumeid. The details and questions routes read each back with the filter
//! `PartitionKey eq '<sourceid>' and RowKey eq '<resumeid>'`. Nothing else reads or deletes.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "FilessPALTECH", partition_key = "{source_id}", row_key = "{resume_id}")]
struct Files {
    /// The route's sourceid, only in the PartitionKey.
    #[table(key_only, max_len = 64)]
    source_id: String,
    /// The route's resumeid, only in the RowKey.
    #[table(key_only, max_len = 64)]
    resume_id: String,
    filename: String,
    /// The blob's public URL.
    filepath: String,
    uploadedby: String,
    fileid: String,
    filesource: String,
    username: String,
    /// The whole text extracted from the PDF.
    resumecontent: String,
    resumesummary: String,
    personaldetails: String,
    skills: String,
    professionalexperience: String,
    educationalbackground: String,
    certifications: String,
    achievements: String,
    interests: String,
}

#[derive(TableEntity)]
#[table(name = "QuestionnairesPALTECH", partition_key = "{source_id}", row_key = "{resume_id}")]
struct Questionnaire {
    #[table(key_only, max_len = 64)]
    source_id: String,
    #[table(key_only, max_len = 64)]
    resume_id: String,
    /// Each category's questions as a JSON list.
    introductory: String,
    experience: String,
    technical: String,
    education: String,
    extra: String,
    interests: String,
    url: String,
    filename: String,
}

/// ResumeServices.get_resume_details: one resume's profile.
fn resume_details(source_id: &str, resume_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", source_id, resume_id)).unwrap()
}

/// ResumeServices.get_question_details: the same keys in the questions table.
fn resume_questions(source_id: &str, resume_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", source_id, resume_id)).unwrap()
}

/// Ingestion.process_resume and process_questions: MERGE upserts of the two rows.
async fn ingest<B: Backend>(
    files: &Table<'_, B, Files>,
    questions: &Table<'_, B, Questionnaire>,
    profile: &Files,
    questionnaire: &Questionnaire,
) {
    let _ = files.upsert_merge(profile).await;
    let _ = questions.upsert_merge(questionnaire).await;
}
