//! What a request costs the store. A proxy between the app and the database records every command
//! the app sends (the MongoDB wire protocol's `OP_MSG`); each recorded command is then priced on
//! the embedded store: which documents FerretDB reads for it (the part of its filter that reaches
//! SQL, counted) and whether SQLite finds them through an index or by reading the whole table
//! (`explain`). A store grown with documents that belong to nobody in the test makes a command
//! whose cost grows with the store stand out.

use std::sync::{Arc, Mutex};

use futures_util::TryStreamExt;
use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, Document};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::app::TestApp;

/// `OP_MSG`, the opcode of every command a current driver sends.
const OP_MSG: i32 = 2013;

/// A TCP proxy in front of the database that keeps each command sent through it.
pub struct CommandRecorder {
    pub port: u16,
    commands: Arc<Mutex<Vec<Document>>>,
}

impl CommandRecorder {
    /// A recorder in front of the host and port of `uri` (`mongodb://host:port/`).
    pub async fn start(uri: &str) -> CommandRecorder {
        let target = uri
            .trim_start_matches("mongodb://")
            .trim_end_matches('/')
            .to_string();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let commands = Arc::new(Mutex::new(Vec::new()));
        let log = commands.clone();
        tokio::spawn(async move {
            while let Ok((inbound, _)) = listener.accept().await {
                let target = target.clone();
                let log = log.clone();
                tokio::spawn(async move {
                    let Ok(outbound) = TcpStream::connect(&target).await else {
                        return;
                    };
                    let (mut from_app, mut to_app) = inbound.into_split();
                    let (mut from_db, mut to_db) = outbound.into_split();
                    let upstream = async {
                        loop {
                            let mut header = [0u8; 16];
                            if from_app.read_exact(&mut header).await.is_err() {
                                return;
                            }
                            let len = i32::from_le_bytes(header[0..4].try_into().unwrap()) as usize;
                            let mut message = header.to_vec();
                            message.resize(len.max(16), 0);
                            if from_app.read_exact(&mut message[16..]).await.is_err() {
                                return;
                            }
                            if i32::from_le_bytes(header[12..16].try_into().unwrap()) == OP_MSG {
                                if let Some(command) = decode_op_msg(&message[16..]) {
                                    log.lock().unwrap().push(command);
                                }
                            }
                            if to_db.write_all(&message).await.is_err() {
                                return;
                            }
                        }
                    };
                    let downstream = tokio::io::copy(&mut from_db, &mut to_app);
                    tokio::select! {
                        _ = upstream => {}
                        _ = downstream => {}
                    }
                });
            }
        });
        CommandRecorder { port, commands }
    }

    /// The commands recorded since the last call, oldest first.
    pub fn take(&self) -> Vec<Document> {
        std::mem::take(&mut *self.commands.lock().unwrap())
    }
}

/// The command of an `OP_MSG` body: its body section, with each document sequence (`documents`
/// of an insert, `updates`, `deletes`) put in as an array under its name.
fn decode_op_msg(body: &[u8]) -> Option<Document> {
    let flags = u32::from_le_bytes(body.get(0..4)?.try_into().ok()?);
    let end = if flags & 1 == 1 {
        body.len() - 4
    } else {
        body.len()
    };
    let mut at = 4;
    let mut command: Option<Document> = None;
    let mut sequences = Vec::new();
    while at < end {
        let kind = body[at];
        at += 1;
        let size = i32::from_le_bytes(body.get(at..at + 4)?.try_into().ok()?) as usize;
        match kind {
            0 => {
                command = Some(Document::from_reader(body.get(at..at + size)?).ok()?);
                at += size;
            }
            1 => {
                let section = body.get(at + 4..at + size)?;
                let nul = section.iter().position(|&b| b == 0)?;
                let name = String::from_utf8_lossy(&section[..nul]).into_owned();
                let mut docs = Vec::new();
                let mut d = nul + 1;
                while d < section.len() {
                    let n = i32::from_le_bytes(section.get(d..d + 4)?.try_into().ok()?) as usize;
                    docs.push(Bson::Document(
                        Document::from_reader(section.get(d..d + n)?).ok()?,
                    ));
                    d += n;
                }
                sequences.push((name, docs));
                at += size;
            }
            _ => return None,
        }
    }
    let mut command = command?;
    for (name, docs) in sequences {
        command.insert(name, Bson::Array(docs));
    }
    Some(command)
}

/// One read of a collection a command makes: the filter FerretDB is given.
#[derive(Debug, Clone)]
pub struct Read {
    pub command: String,
    pub collection: String,
    pub filter: Document,
}

/// The reads a command makes (none for inserts, index builds, cursors' next batches and the
/// driver's own commands).
pub fn reads_of(command: &Document) -> Vec<Read> {
    let Some((name, target)) = command.iter().next() else {
        return Vec::new();
    };
    let Bson::String(collection) = target else {
        return Vec::new();
    };
    let read = |filter: Option<&Document>| Read {
        command: name.clone(),
        collection: collection.clone(),
        filter: filter.cloned().unwrap_or_default(),
    };
    let each = |list: &str, key: &str| -> Vec<Read> {
        command
            .get_array(list)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Bson::as_document)
                    .map(|item| read(item.get_document(key).ok()))
                    .collect()
            })
            .unwrap_or_default()
    };
    match name.as_str() {
        "find" => vec![read(command.get_document("filter").ok())],
        "count" | "distinct" => vec![read(command.get_document("query").ok())],
        "findAndModify" | "findandmodify" => vec![read(command.get_document("query").ok())],
        "update" => each("updates", "q"),
        "delete" => each("deletes", "q"),
        "aggregate" => {
            let first = command
                .get_array("pipeline")
                .ok()
                .and_then(|p| p.first())
                .and_then(Bson::as_document)
                .and_then(|stage| stage.get_document("$match").ok());
            vec![read(first)]
        }
        _ => Vec::new(),
    }
}

/// The part of a filter the embedded store evaluates in SQL (its patched SQLite backend, see
/// `scripts/ferretdb/index-pushdown.patch`): equalities on top-level fields with a string,
/// ObjectId or bool (`{f: v}`, `{f: {$eq: v}}`, `{f: {$in: [...]}}`), `$and` of such filters, and
/// `$or` of them when each branch has one (of each branch, its first). FerretDB decodes every
/// document this part lets through.
pub fn pushed_down(filter: &Document) -> Document {
    let mut out = Document::new();
    for (key, value) in filter {
        match key.as_str() {
            "$and" => {
                let parts: Vec<Bson> = branches(value)
                    .iter()
                    .map(pushed_down)
                    .filter(|p| !p.is_empty())
                    .map(Bson::Document)
                    .collect();
                if !parts.is_empty() {
                    out.insert("$and", parts);
                }
            }
            "$or" => {
                let branches = branches(value);
                let parts: Vec<Bson> = branches
                    .iter()
                    .filter_map(|b| {
                        b.iter().find_map(|(k, v)| {
                            equality(k, v).map(|e| Bson::Document(doc! { k.clone(): e }))
                        })
                    })
                    .collect();
                if !branches.is_empty() && parts.len() == branches.len() {
                    out.insert("$or", parts);
                }
            }
            _ => {
                if let Some(e) = equality(key, value) {
                    out.insert(key.clone(), e);
                }
            }
        }
    }
    out
}

/// The documents of an `$and` or `$or` array.
fn branches(value: &Bson) -> Vec<Document> {
    match value {
        Bson::Array(items) => items
            .iter()
            .filter_map(|b| b.as_document().cloned())
            .collect(),
        _ => Vec::new(),
    }
}

/// The equality on a top-level field the store evaluates in SQL, when `key: value` is one.
fn equality(key: &str, value: &Bson) -> Option<Bson> {
    if key.starts_with('$') || key.contains('.') {
        return None;
    }
    let scalar = |v: &Bson| matches!(v, Bson::String(_) | Bson::ObjectId(_) | Bson::Boolean(_));
    match value {
        v if scalar(v) => Some(v.clone()),
        Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
            if let Some(v) = ops.get("$eq").filter(|v| scalar(v)) {
                return Some(v.clone());
            }
            let list = ops.get_array("$in").ok()?;
            (!list.is_empty() && list.iter().all(scalar))
                .then(|| Bson::Document(doc! { "$in": list.clone() }))
        }
        _ => None,
    }
}

/// What one read costs on the embedded store.
#[derive(Debug, Clone)]
pub struct ReadCost {
    pub read: Read,
    /// Documents FerretDB reads and decodes for it.
    pub examined: u64,
    /// Documents in the collection.
    pub size: u64,
    /// How many reads of this shape the app made, and the shape (see `TestApp::read_costs`).
    pub times: usize,
    pub shape: String,
    /// Whether SQLite reads the whole table (no index serves the filter).
    pub scans: bool,
    /// SQLite's plan, as `explain` reports it.
    pub plan: Vec<String>,
}

impl ReadCost {
    /// Whether the read goes over the collection (or most of it) rather than the documents it is
    /// about: the whole table in SQLite, or half of the documents decoded.
    pub fn is_pass(&self) -> bool {
        self.scans || self.examined * 2 > self.size
    }
}

impl std::fmt::Display for ReadCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} {} → {} of {} documents read{}; plan {:?}",
            self.read.command,
            self.read.collection,
            self.read.filter,
            self.examined,
            self.size,
            if self.scans { ", whole table" } else { "" },
            self.plan
        )
    }
}

impl TestApp {
    /// The app's recorder of commands (the app was spawned with `record_commands`).
    pub fn recorder(&self) -> &CommandRecorder {
        self.recorder
            .as_ref()
            .expect("spawn the app with record_commands to price its commands")
    }

    /// The reads of the commands the app sent since the last call, priced. Reads of the same
    /// shape (command, collection and filter with its values left out) are priced up to
    /// `PRICED_PER_SHAPE` times; each priced read carries how many reads of its shape there were.
    pub async fn read_costs(&self) -> Vec<ReadCost> {
        const PRICED_PER_SHAPE: usize = 3;
        let commands = self.recorder().take();
        let mut shapes: Vec<(String, Vec<Read>, usize)> = Vec::new();
        for command in &commands {
            if command.get_str("$db").ok() != Some(self.db_name.as_str()) {
                continue;
            }
            for read in reads_of(command) {
                let key = format!(
                    "{} {} {}",
                    read.command,
                    read.collection,
                    shape(&Bson::Document(read.filter.clone()))
                );
                match shapes.iter_mut().find(|(k, _, _)| *k == key) {
                    Some((_, priced, times)) => {
                        *times += 1;
                        if priced.len() < PRICED_PER_SHAPE {
                            priced.push(read);
                        }
                    }
                    None => shapes.push((key, vec![read], 1)),
                }
            }
        }
        let mut costs = Vec::new();
        for (key, reads, times) in shapes {
            for read in reads {
                let mut cost = self.price(read).await;
                cost.times = times;
                cost.shape = key.clone();
                costs.push(cost);
            }
        }
        costs
    }

    /// What one read costs on the store as it is now.
    pub async fn price(&self, read: Read) -> ReadCost {
        let coll = self.db.database().collection::<Document>(&read.collection);
        let pushed = pushed_down(&read.filter);
        let size = coll.estimated_document_count().await.unwrap();
        let examined = if pushed.is_empty() {
            size
        } else {
            coll.count_documents(pushed).await.unwrap()
        };
        let explained = self
            .db
            .database()
            .run_command(doc! {
                "explain": { "find": &read.collection, "filter": &read.filter },
                "verbosity": "queryPlanner",
            })
            .await
            .unwrap();
        let plan: Vec<String> = explained
            .get_document("queryPlanner")
            .ok()
            .and_then(|q| q.get_array("Plan").ok())
            .map(|p| {
                p.iter()
                    .filter_map(|s| s.as_str().map(|s| s.to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let scans = plan.iter().any(|step| step.contains("detail=SCAN "));
        ReadCost {
            read,
            examined,
            size,
            times: 1,
            shape: String::new(),
            scans,
            plan,
        }
    }

    /// Grows every collection of the app's database to at least `size` documents with copies of
    /// the documents in it, which belong to nobody the test knows: each copy has a new `_id`,
    /// every other ObjectId in it (top level, and one level into arrays) replaced by a new one,
    /// and the strings of unique indexes made unique. The collections named in `fixed` (those
    /// whose size does not grow with the site's activity) are left as they are. Copies of work
    /// that waits for a worker are stored as work done (`FINISHED`), as the store of a site that
    /// has run for a while holds it: a copy must not set the server's workers going.
    pub async fn grow_store(&self, size: u64, fixed: &[&str]) {
        let database = self.db.database();
        let names = database.list_collection_names().await.unwrap();
        for name in names {
            if fixed.contains(&name.as_str()) {
                continue;
            }
            let coll = database.collection::<Document>(&name);
            let templates: Vec<Document> = coll
                .find(doc! {})
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            if templates.is_empty() || templates.len() as u64 >= size {
                continue;
            }
            let mut unique_strings = Vec::new();
            let indexes: Vec<mongodb::IndexModel> = coll
                .list_indexes()
                .await
                .unwrap()
                .try_collect()
                .await
                .unwrap();
            for index in indexes {
                let unique = index
                    .options
                    .as_ref()
                    .and_then(|o| o.unique)
                    .unwrap_or(false);
                if unique {
                    unique_strings.extend(index.keys.keys().cloned());
                }
            }
            let finished = FINISHED
                .iter()
                .find(|(c, _)| *c == name)
                .map(|(_, done)| done());
            let mut batch = Vec::new();
            for n in templates.len() as u64..size {
                let template = &templates[(n as usize) % templates.len()];
                let mut copy = filler_copy(template, n, &unique_strings);
                if let Some(done) = &finished {
                    copy.extend(done.clone());
                }
                batch.push(copy);
                if batch.len() == 1000 {
                    coll.insert_many(std::mem::take(&mut batch)).await.unwrap();
                }
            }
            if !batch.is_empty() {
                coll.insert_many(batch).await.unwrap();
            }
        }
    }
}

/// The fields of a copy of work a worker waits for, set as that work looks once done.
type Done = fn() -> Document;
const FINISHED: &[(&str, Done)] = &[
    ("post_announcements", || {
        doc! { "phase": "done", "leaseOwner": Bson::Null, "leaseUntil": Bson::Null, "inFlight": [] }
    }),
    ("admin_jobs", || doc! { "status": "done" }),
];

/// A filter's shape: its keys and operators, with every value replaced by its type.
fn shape(value: &Bson) -> String {
    match value {
        Bson::Document(d) => {
            let parts: Vec<String> = d
                .iter()
                .map(|(k, v)| format!("{k}: {}", shape(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Bson::Array(items) => match items.first() {
            Some(Bson::Document(_)) => {
                let parts: Vec<String> = items.iter().map(shape).collect();
                format!("[{}]", parts.join(", "))
            }
            _ => "[..]".into(),
        },
        other => format!("{:?}", other.element_type()),
    }
}

/// A copy of `template` that belongs to nobody (see `grow_store`).
fn filler_copy(template: &Document, n: u64, unique_strings: &[String]) -> Document {
    let fresh = |v: &Bson| match v {
        Bson::ObjectId(_) => Bson::ObjectId(ObjectId::new()),
        other => other.clone(),
    };
    let mut copy = Document::new();
    for (key, value) in template {
        let value = match value {
            Bson::ObjectId(_) => Bson::ObjectId(ObjectId::new()),
            Bson::Array(items) => Bson::Array(items.iter().map(fresh).collect()),
            Bson::String(s) if unique_strings.iter().any(|k| k == key) => {
                Bson::String(format!("{s}-filler-{n}"))
            }
            // Identifiers built from ids (`{user}:{post}`) are unique too.
            Bson::String(s) if key == "_id" => Bson::String(format!("{s}-filler-{n}")),
            other => other.clone(),
        };
        copy.insert(key.clone(), value);
    }
    copy
}
