//! Holcombe Scores (C#, Azure.Data.Tables): a web app for a youth football club's teams that
//! records games, the squad picked for each game, and goals as they happen. One table each for
//! games, players, game players and goals. Sources at commit
//! 7b798ae5e1d7e74a8b131d63751eb0788eac7f65:
//! https://github.com/laingsimon/holcombe-scores/blob/7b798ae5e1d7e74a8b131d63751eb0788eac7f65/HolcombeScores.Api/Repositories/GameRepository.cs
//! with Repositories/PlayerRepository.cs, Repositories/TypedTableClient.cs and
//! Models/AzureTables/{Game,Player,GamePlayer,Goal}.cs under HolcombeScores.Api/.
//!
//! Keys, each id also stored as a property of its own:
//! - Game: PartitionKey = TeamId, RowKey = Id (GUIDs, ToString()).
//! - Player: PartitionKey = TeamId, RowKey = Id (a new GUID).
//! - GamePlayer: PartitionKey = GameId, RowKey = Number.ToString(), the player's shirt number,
//!   an `int?` (null gives the empty RowKey).
//! - Goal: PartitionKey = GameId, RowKey = GoalId (a new GUID).
//! Reads are LINQ predicates on the properties, never on the keys: games and players by TeamId
//! (or the whole table), one game or player by Id (SingleOrDefault, the first match), a player
//! by TeamId and Number, a game's squad and goals by GameId. Deleting a game, player, game
//! player or goal first finds the row with one of those reads, then deletes by its keys. Game
//! updates are Replace with ETag.All; player updates Merge with the read ETag.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Game", partition_key = "{team_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Game {
    team_id: Uuid,
    id: Uuid,
    #[table(max_len = 100)]
    opponent: String,
    playing_at_home: bool,
    date: OffsetDateTime,
    training: bool,
    postponed: bool,
    #[table(max_len = 200)]
    address: String,
    friendly: bool,
    /// Player of the session, as chosen by the manager, the supporters and the players.
    manager_pots: Option<Uuid>,
    supporter_pots: Option<Uuid>,
    player_pots: Option<Uuid>,
}

#[derive(TableEntity)]
#[table(name = "Player", partition_key = "{team_id}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Player {
    team_id: Uuid,
    id: Uuid,
    #[table(max_len = 100)]
    name: String,
    number: Option<i32>,
}

#[derive(TableEntity)]
#[table(name = "GamePlayer", partition_key = "{game_id}", row_key = "{number:unpadded}")]
#[table(rename_all = "PascalCase")]
struct GamePlayer {
    game_id: Uuid,
    /// The shirt number; `int?` in the original, where null is written as the empty RowKey.
    number: i32,
    team_id: Uuid,
    player_id: Uuid,
    #[table(max_len = 100)]
    name: String,
}

#[derive(TableEntity)]
#[table(name = "Goal", partition_key = "{game_id}", row_key = "{goal_id}")]
#[table(rename_all = "PascalCase")]
struct Goal {
    game_id: Uuid,
    goal_id: Uuid,
    time: OffsetDateTime,
    holcombe_goal: bool,
    player_id: Option<Uuid>,
    team_id: Option<Uuid>,
    assisted_by_player_id: Option<Uuid>,
}

/// GameRepository.GetAll(teamId) and PlayerRepository.GetAll(teamId).
fn by_team(team_id: Uuid) -> Query {
    Query::filter(&format!("TeamId eq guid'{}'", team_id)).unwrap()
}

/// GetAll(null): every game, or every player.
fn everything() -> Query {
    Query::all()
}

/// GameRepository.Get(id) and PlayerRepository.Get(id): the first row whose Id matches.
fn by_id(id: Uuid) -> Query {
    Query::filter(&format!("Id eq guid'{}'", id)).unwrap()
}

/// PlayerRepository.GetByNumber(teamId, number).
fn player_by_number(team_id: Uuid, number: i32) -> Query {
    Query::filter(&format!("(TeamId eq guid'{}') and (Number eq {})", team_id, number)).unwrap()
}

/// GetPlayers(gameId) and GetGoals(gameId).
fn of_game(game_id: Uuid) -> Query {
    Query::filter(&format!("GameId eq guid'{}'", game_id)).unwrap()
}

/// Add, AddPlayer, AddGamePlayer, AddGoal: AddEntityAsync.
async fn adds<B: Backend>(
    games: &Table<'_, B, Game>,
    players: &Table<'_, B, Player>,
    squad: &Table<'_, B, GamePlayer>,
    goals: &Table<'_, B, Goal>,
    game: &Game,
    player: &Player,
    picked: &GamePlayer,
    goal: &Goal,
) {
    let _ = games.insert(game).await;
    let _ = players.insert(player).await;
    let _ = squad.insert(picked).await;
    let _ = goals.insert(goal).await;
}

/// Update(game): Replace with ETag.All; UpdatePlayer: Get(id), then Merge with its ETag.
async fn updates<B: Backend>(
    games: &Table<'_, B, Game>,
    players: &Table<'_, B, Player>,
    game: &Game,
    player: &Player,
    etag: IfMatch,
) {
    let _ = games.replace(game, IfMatch::Any).await;
    let _ = players.query_page(&by_id(player.id), None).await;
    let _ = players.merge(player, etag).await;
}

/// DeleteGoal(gameId, goalId): the game's goals by a scan, then the one whose RowKey matches is
/// deleted. DeleteGamePlayer, DeleteGame and DeletePlayer do the same with their reads.
async fn delete_goal<B: Backend>(goals: &Table<'_, B, Goal>, game_id: Uuid, goal_id: Uuid) {
    let page = goals.query_page(&of_game(game_id), None).await.unwrap();
    for goal in page.items {
        if goal.goal_id == goal_id {
            let _ = goals.delete(&goal.key(), IfMatch::Any).await;
        }
    }
}

async fn delete_game<B: Backend>(games: &Table<'_, B, Game>, id: Uuid) {
    let page = games.query_page(&by_id(id), None).await.unwrap();
    if let Some(game) = page.items.into_iter().next() {
        let _ = games.delete(&game.key(), IfMatch::Any).await;
    }
}
