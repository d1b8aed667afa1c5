//! redanthrax/as (Go, aztables): the Pokemon table of a demo Azure Functions app, an HTTP API and
//! a queue-triggered worker. Sources at commit 028b607dd5bf4c0767f3166585e8529da28b7d48:
//! https://github.com/redanthrax/as/blob/028b607dd5bf4c0767f3166585e8529da28b7d48/worker/internal/repository/pokemon.go
//! and worker/internal/services/pokemon.go; the API's api/internal/repository/pokemon.go (commit
//! 13d753fcd378316249831bafb35023e6a78b0bd3) has the same GetPokemon and AddPokemon.
//!
//! AddPokemon writes an EDMEntity with PartitionKey = the literal `pokemon`, RowKey = the
//! Pokémon's name and one property, Name, the same name, by AddEntity (an insert). The worker's
//! SyncPokemon fetches up to 2,000 names from PokeAPI (`pokeapi.Resource("pokemon", 0, 2000)`)
//! and adds each in turn, ignoring errors. GetPokemon lists the whole table with
//! `NewListEntitiesPager(nil)`. Nothing is filtered, updated or deleted.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Pokemon", partition_key = "pokemon", row_key = "{name}")]
#[table(load(rows = 2000))]
struct Pokemon {
    /// The Pokémon's name as PokeAPI lists it; the RowKey and the `Name` property.
    #[table(rename = "Name")]
    name: String,
}

/// GetPokemon: every entity of the table, no filter.
fn all_pokemon() -> Query {
    Query::all()
}

/// SyncPokemon: AddEntity of each name in turn.
async fn sync<B: Backend>(table: &Table<'_, B, Pokemon>, names: &[Pokemon]) {
    for p in names {
        let _ = table.insert(p).await;
    }
}
