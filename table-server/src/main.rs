//! `table-server`: a local Azure Table service. See the crate documentation and the README's
//! "A local Table service for any language".

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, Command, value_parser};
use table_http::connection::AccountKey;
use table_server::auth::Accounts;
use table_server::{Config, Server, Storage};

/// A request allocates many small, short-lived values (headers, entities, JSON), and a scan or a
/// `$batch` thousands of them; mimalloc's thread-local free lists serve them at a fraction of
/// the system allocator's cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn command() -> Command {
    Command::new("table-server")
        .about("A local Azure Table service: the Table REST API over an exact, durable store")
        .arg(
            Arg::new("host")
                .long("host")
                .default_value("127.0.0.1")
                .value_parser(value_parser!(IpAddr))
                .help("Address to listen on; anything but loopback is reachable from other machines"),
        )
        .arg(
            Arg::new("port")
                .long("port")
                .default_value("10002")
                .value_parser(value_parser!(u16))
                .help("Port to listen on (0 picks a free one)"),
        )
        .arg(
            Arg::new("data-dir")
                .long("data-dir")
                .value_parser(value_parser!(PathBuf))
                .conflicts_with("in-memory")
                .help("Where the data lives (default ./table-server-data)"),
        )
        .arg(
            Arg::new("in-memory")
                .long("in-memory")
                .action(ArgAction::SetTrue)
                .help("Keep nothing on disk"),
        )
        .arg(
            Arg::new("account")
                .long("account")
                .action(ArgAction::Append)
                .value_name("NAME:BASE64KEY")
                .help("An account to serve (repeatable); default devstoreaccount1 with the emulator's key"),
        )
        .arg(
            Arg::new("log-requests")
                .long("log-requests")
                .action(ArgAction::SetTrue)
                .help("Print one line per request on stderr"),
        )
        .arg(
            Arg::new("trace-queries")
                .long("trace-queries")
                .action(ArgAction::SetTrue)
                .help("Print each query's class (point, range, partition scan, table scan), entities examined and returned"),
        )
        .arg(
            Arg::new("deny-table-scans")
                .long("deny-table-scans")
                .action(ArgAction::SetTrue)
                .help("Refuse table scans with 400 QueryScanForbidden"),
        )
        .arg(
            Arg::new("deny-partition-scans")
                .long("deny-partition-scans")
                .action(ArgAction::SetTrue)
                .help("Refuse partition scans and table scans with 400 QueryScanForbidden"),
        )
        .arg(
            Arg::new("paging-quirks")
                .long("paging-quirks")
                .value_name("SEED")
                .value_parser(value_parser!(u64))
                .help("End pages early as the service may (at partition boundaries, empty with a continuation), to test paging loops"),
        )
        .arg(
            Arg::new("cert")
                .long("cert")
                .value_name("PEM")
                .value_parser(value_parser!(PathBuf))
                .requires("key")
                .help("Serve HTTPS with this certificate (chain) in PEM; with --key"),
        )
        .arg(
            Arg::new("key")
                .long("key")
                .value_name("PEM")
                .value_parser(value_parser!(PathBuf))
                .requires("cert")
                .help("The certificate's private key in PEM (PKCS#8, PKCS#1 or SEC1); with --cert"),
        )
        .arg(
            Arg::new("oauth")
                .long("oauth")
                .value_name("LEVEL")
                .value_parser(["basic"])
                .requires("cert")
                .help("Accept Microsoft Entra ID bearer tokens (Authorization: Bearer <JWT>) over HTTPS, as Azurite's --oauth basic: \
                       the token's audience (https://storage.azure.com or the account's table endpoint), issuer (Entra ID) and lifetime are checked, \
                       its SIGNATURE IS NOT, so anyone can mint one; a valid token grants what the account key grants (no roles). \
                       Needs --cert/--key and x-ms-version 2019-02-02 or later. Off by default: bearer tokens get 403 AuthenticationFailed"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .value_parser(value_parser!(u16).range(1..=1024))
                .help("Threads that answer requests [default: half the cores, at least 1]"),
        )
}

fn config(matches: &clap::ArgMatches) -> Result<Config, String> {
    let mut config = Config::development();
    let host = *matches
        .get_one::<IpAddr>("host")
        .unwrap_or(&config.addr.ip());
    let port = *matches.get_one::<u16>("port").unwrap_or(&10002);
    config.addr = SocketAddr::new(host, port);
    config.storage = if matches.get_flag("in-memory") {
        Storage::InMemory
    } else {
        Storage::Dir(
            matches
                .get_one::<PathBuf>("data-dir")
                .cloned()
                .unwrap_or_else(|| PathBuf::from("table-server-data")),
        )
    };
    if let Some(accounts) = matches.get_many::<String>("account") {
        let mut all = Accounts::default();
        for account in accounts {
            let (name, key) = account
                .split_once(':')
                .ok_or_else(|| format!("--account `{account}` is not NAME:BASE64KEY"))?;
            let valid_name = (3..=24).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
            if !valid_name {
                return Err(format!(
                    "--account `{name}`: an account name is 3 to 24 lowercase letters and digits"
                ));
            }
            let key = AccountKey::from_base64(key)
                .map_err(|e| format!("--account `{name}`: the key is not base64: {}", e.0))?;
            all.add(name, key);
        }
        config.accounts = all;
    }
    config.log_requests = matches.get_flag("log-requests");
    config.trace_queries = matches.get_flag("trace-queries");
    config.deny_table_scans = matches.get_flag("deny-table-scans");
    config.deny_partition_scans = matches.get_flag("deny-partition-scans");
    config.paging_quirks = matches.get_one::<u64>("paging-quirks").copied();
    if let Some(threads) = matches.get_one::<u16>("threads") {
        config.threads = usize::from(*threads);
    }
    if let (Some(cert), Some(key)) = (
        matches.get_one::<PathBuf>("cert"),
        matches.get_one::<PathBuf>("key"),
    ) {
        config.tls = Some(table_server::tls_config(cert, key)?);
    }
    if matches
        .get_one::<String>("oauth")
        .is_some_and(|l| l == "basic")
    {
        config.oauth = table_server::auth::OAuth::Basic;
    }
    Ok(config)
}

/// Waits for SIGTERM or SIGINT.
fn wait_for_signal() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    runtime.block_on(async {
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        std::future::poll_fn(|cx| {
            if term.poll_recv(cx).is_ready() || int.poll_recv(cx).is_ready() {
                std::task::Poll::Ready(())
            } else {
                std::task::Poll::Pending
            }
        })
        .await;
        Ok(())
    })
}

fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let config = match config(&matches) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("table-server: {e}");
            return ExitCode::from(2);
        }
    };
    if !config.addr.ip().is_loopback() {
        let over = if config.tls.is_some() {
            "over HTTPS"
        } else {
            "over plain HTTP"
        };
        eprintln!(
            "table-server: warning: listening on {}, reachable from other machines, {over}",
            config.addr.ip()
        );
    }
    let storage = match &config.storage {
        Storage::InMemory => "in memory".to_owned(),
        Storage::Dir(dir) => format!("data in {}", dir.display()),
    };
    let mut accounts: Vec<String> = config.accounts.names().map(str::to_owned).collect();
    accounts.sort();
    let (server, opened) = match Server::start(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("table-server: {e}");
            return ExitCode::from(1);
        }
    };
    for (account, found) in &opened.restored {
        eprintln!(
            "table-server: {account}: read back {} tables and {} entities",
            found.tables, found.entities
        );
    }
    for account in &accounts {
        println!(
            "table-server: listening on {} ({storage})",
            server.endpoint(account)
        );
    }
    if let Err(e) = wait_for_signal() {
        eprintln!("table-server: cannot wait for signals: {e}");
    }
    eprintln!("table-server: stopping: finishing requests in flight, flushing data");
    server.stop();
    ExitCode::SUCCESS
}
