//! Test support: a connection string for Azurite's table, queue and blob services, started on
//! demand.
//!
//! Include it from any test target with
//! `#[path = "…/table-http/tests/support/azurite_fixture.rs"] mod azurite_fixture;` and call
//! [`connection_string`]: it names all three services (`TableEndpoint=`, `QueueEndpoint=`,
//! `BlobEndpoint=`). It uses only the standard library, so a crate needs no extra dependency
//! for it.
//!
//! The services are found, once per test binary, in this order:
//!
//! 1. `AZURITE_TABLE_CONNECTION_STRING`, if set, is used as it is;
//! 2. else, if something accepts connections on `127.0.0.1:$AZURITE_TABLE_PORT` (default 10002),
//!    `$AZURITE_QUEUE_PORT` (default 10001) and `$AZURITE_BLOB_PORT` (default 10000), they are
//!    taken to be Azurite with its well-known development account (this is what `.ci/run`
//!    starts);
//! 3. else one is started for this test binary with the repository's `.ci/azurite start`, on
//!    three free ports and in a run directory of its own (the first start installs Azurite from
//!    the npm registry, which can take a few minutes). A watcher process stops it when the test
//!    binary exits, however it exits: the watcher reads a pipe whose only writer is the test
//!    process, and the kernel closes that pipe when the process ends.
//!
//! When none of this works (no Node.js, no network for the first install), every caller panics
//! with the reason: the tests fail, they are never skipped.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The emulator's well-known account key (published by Microsoft, the same everywhere).
const DEV_ACCOUNT_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// The connection string of the services the tests talk to, found or started once per test
/// binary (see the module documentation). Panics with the reason when there are none.
pub fn connection_string() -> String {
    static FOUND: OnceLock<Result<String, String>> = OnceLock::new();
    match FOUND.get_or_init(find_or_start) {
        Ok(cs) => cs.clone(),
        Err(why) => panic!("no Azurite for the tests: {why}"),
    }
}

/// The connection string of Azurite's development account with its table service on a loopback
/// port (and no queue or blob endpoint).
pub fn development_connection_string(port: u16) -> String {
    format!(
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_ACCOUNT_KEY};\
         TableEndpoint=http://127.0.0.1:{port}/devstoreaccount1"
    )
}

/// The loopback ports of Azurite's three services.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ports {
    /// The table service's.
    pub table: u16,
    /// The queue service's.
    pub queue: u16,
    /// The blob service's.
    pub blob: u16,
}

/// The connection string of Azurite's development account with all three services on loopback
/// ports.
pub fn storage_connection_string(ports: Ports) -> String {
    format!(
        "{};QueueEndpoint=http://127.0.0.1:{}/devstoreaccount1;\
         BlobEndpoint=http://127.0.0.1:{}/devstoreaccount1",
        development_connection_string(ports.table),
        ports.queue,
        ports.blob
    )
}

fn port_from_env(name: &str, default: u16) -> Result<u16, String> {
    match std::env::var(name) {
        Ok(p) => p
            .trim()
            .parse::<u16>()
            .map_err(|_| format!("{name}=`{p}` is not a port number")),
        Err(_) => Ok(default),
    }
}

fn find_or_start() -> Result<String, String> {
    if let Ok(cs) = std::env::var("AZURITE_TABLE_CONNECTION_STRING") {
        return Ok(cs);
    }
    let ports = Ports {
        table: port_from_env("AZURITE_TABLE_PORT", 10002)?,
        queue: port_from_env("AZURITE_QUEUE_PORT", 10001)?,
        blob: port_from_env("AZURITE_BLOB_PORT", 10000)?,
    };
    // All three, or one of our own: an older Azurite serving tables only would leave the queue
    // and blob tests without a service.
    if answers(ports.table) && answers(ports.queue) && answers(ports.blob) {
        return Ok(storage_connection_string(ports));
    }
    start_own()
}

fn answers(port: u16) -> bool {
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    TcpStream::connect_timeout(&address, Duration::from_secs(2)).is_ok()
}

/// The repository's `.ci/azurite`, found by walking up from the crate being tested.
fn azurite_script() -> Result<PathBuf, String> {
    let start = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dir: Option<&Path> = Some(&start);
    while let Some(d) = dir {
        let script = d.join(".ci").join("azurite");
        if script.is_file() {
            return Ok(script);
        }
        dir = d.parent();
    }
    Err(format!(
        "`.ci/azurite` not found above {}; set AZURITE_TABLE_CONNECTION_STRING instead",
        start.display()
    ))
}

/// Three distinct free loopback ports (their listeners are held until all three are found).
fn free_ports() -> Result<Ports, String> {
    let fail = |e: std::io::Error| format!("cannot find a free loopback port: {e}");
    let listeners = [
        TcpListener::bind(("127.0.0.1", 0)).map_err(fail)?,
        TcpListener::bind(("127.0.0.1", 0)).map_err(fail)?,
        TcpListener::bind(("127.0.0.1", 0)).map_err(fail)?,
    ];
    let port = |l: &TcpListener| l.local_addr().map(|a| a.port()).map_err(fail);
    Ok(Ports {
        table: port(&listeners[0])?,
        queue: port(&listeners[1])?,
        blob: port(&listeners[2])?,
    })
}

/// Keeps the write end of the watcher's pipe open for as long as the test process lives.
static WATCHER_PIPE: Mutex<Vec<ChildStdin>> = Mutex::new(Vec::new());

/// Starts Azurite through `.ci/azurite start` with its own port and run directory, and a watcher
/// that stops it once this process is gone.
fn start_own() -> Result<String, String> {
    let script = azurite_script()?;
    let mut last_error = String::new();
    // A port found free can be taken by someone else before Azurite binds it: try a few.
    for _ in 0..3 {
        let ports = free_ports()?;
        let run_dir = std::env::temp_dir().join(format!(
            "table-ci-azurite-test-{}-{}",
            std::process::id(),
            ports.table
        ));
        // The watcher first, so Azurite never outlives this process, even if the start below
        // fails half-way.
        watch(&script, ports, &run_dir)?;
        let output = Command::new(&script)
            .arg("start")
            .env("AZURITE_TABLE_PORT", ports.table.to_string())
            .env("AZURITE_QUEUE_PORT", ports.queue.to_string())
            .env("AZURITE_BLOB_PORT", ports.blob.to_string())
            .env("AZURITE_RUN_DIR", &run_dir)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if output.status.success()
            && answers(ports.table)
            && answers(ports.queue)
            && answers(ports.blob)
        {
            return Ok(storage_connection_string(ports));
        }
        last_error = format!(
            "`{} start` on ports {ports:?} failed ({}):\n{}{}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Err(last_error)
}

/// A `bash` process that waits for the end of this process (end of file on its standard input,
/// whose only writer this process holds) and then stops the Azurite started on `ports` (all
/// three services: one process, one pid file in `run_dir`) and removes its run directory. It
/// ignores SIGINT and SIGHUP, so a Ctrl-C that ends the tests does not end it before it has
/// cleaned up.
fn watch(script: &Path, ports: Ports, run_dir: &Path) -> Result<(), String> {
    let watcher = r#"trap '' INT HUP
cat >/dev/null
AZURITE_TABLE_PORT="$2" AZURITE_QUEUE_PORT="$3" AZURITE_BLOB_PORT="$4" AZURITE_RUN_DIR="$5" \
  "$1" stop >/dev/null 2>&1
rm -rf -- "$5""#;
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(watcher)
        .arg("azurite-watcher")
        .arg(script)
        .arg(ports.table.to_string())
        .arg(ports.queue.to_string())
        .arg(ports.blob.to_string())
        .arg(run_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start the watcher (bash): {e}"))?;
    let pipe = child
        .stdin
        .take()
        .ok_or("the watcher has no standard input")?;
    WATCHER_PIPE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(pipe);
    // The watcher is not waited for: it must outlive this process. Its exit status is of no
    // interest, and dropping `child` neither kills nor waits for it.
    drop(child);
    Ok(())
}
