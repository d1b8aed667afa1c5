//! NHS 111 online (C#, ASP.NET, WindowsAzure.Storage): the business API of the NHS 111 symptom
//! checker reads "module zero" journeys, the fixed opening questions asked before a pathway,
//! from a configuration table. Sources (commit 408ee20e1e3ba5ed73cece8b10a74a6e806eda93 of
//! https://github.com/111Online/web-stack):
//! https://github.com/111Online/web-stack/blob/408ee20e1e3ba5ed73cece8b10a74a6e806eda93/NHS111/NHS111.Business/Builders/ModZeroJourneyStepsBuilder.cs
//! with NHS111/NHS111.Utils/Storage/AzureStorageService.cs and
//! NHS111/NHS111.Models/Models/Azure/{ModZeroJourney,ModZeroJourneyStep}.cs.
//!
//! One table (named in configuration) holds two kinds of rows. A journey: PartitionKey =
//! `ModZeroJourney`, RowKey = gender, age group, maximum age, type and party run together
//! (`{Gender}{AgeGroup}{MaxAge}{Type}-{Party}`), properties gender, minimumAge, maximumAge,
//! type, pathwayId, dispositionId, party and state (JSON). A step: PartitionKey = its journey's
//! RowKey, RowKey = the step's position written as a plain number, properties questionId and
//! answerOrder. GetModZeroJourney (on each start of a triage) calls
//! `_table.CreateQuery<T>().Where(lambda)` with a `Func<T, bool>`, not an expression, so LINQ to
//! Objects runs the predicate: the request has no filter, the whole table is downloaded, and the
//! journey (by PartitionKey, gender, age range, type and party) and then its steps (by
//! PartitionKey) are picked out on the client; steps are put in order with `int.Parse(RowKey)`.
//! The rows are loaded by hand; the code never writes them.

use table_runtime::{Query, TableEntity};

#[derive(TableEntity)]
#[table(name = "modzerojourneys", partition_key = "ModZeroJourney", row_key = "{journey_key}")]
#[table(rename_all = "camelCase")]
struct ModZeroJourney {
    /// `{Gender}{AgeGroup}{MaxAge}{Type}-{Party}`, e.g. `MaleAdult200Trauma-1`.
    #[table(max_len = 60)]
    journey_key: String,
    gender: String,
    minimum_age: i32,
    maximum_age: i32,
    #[table(rename = "type")]
    journey_type: String,
    pathway_id: String,
    disposition_id: String,
    party: i32,
    /// A JSON object of state values.
    state: String,
}

#[derive(TableEntity)]
#[table(name = "modzerojourneys", partition_key = "{journey_key}", row_key = "{step_order:unpadded}")]
#[table(rename_all = "camelCase")]
struct ModZeroJourneyStep {
    #[table(max_len = 60)]
    journey_key: String,
    /// The step's position, `1`, `2`, … `12`.
    step_order: u32,
    question_id: String,
    answer_order: i32,
}

/// GetEntity<ModZeroJourney> and GetAllEntities<ModZeroJourneyStep>: `CreateQuery<T>()` enumerated
/// through a `Func` predicate, so the request carries no `$filter`.
fn whole_table() -> Query {
    Query::all()
}
