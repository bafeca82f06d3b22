//! A switchable TCP proxy, put between the app and the database or Redis to take them away.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP proxy in front of the database (or Redis) that can be switched off (dropping every connection) and
/// back on.
pub struct DbProxy {
    pub port: u16,
    up: Arc<AtomicBool>,
    generation: watch::Sender<u64>,
}

impl DbProxy {
    /// A proxy to the host and port of `uri` (`mongodb://`, `redis://` or `http://`).
    pub async fn start(uri: &str) -> DbProxy {
        let target = uri
            .trim_start_matches("mongodb://")
            .trim_start_matches("redis://")
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let (generation, _) = watch::channel(0u64);
        let gen_rx = generation.subscribe();
        let up2 = up.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut inbound, _)) = listener.accept().await else {
                    return;
                };
                if !up2.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let target = target.clone();
                let mut gen_rx = gen_rx.clone();
                tokio::spawn(async move {
                    // Only a switch-off after this connection opened should end it.
                    gen_rx.borrow_and_update();
                    let Ok(mut outbound) = TcpStream::connect(&target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = gen_rx.changed() => {}
                    }
                });
            }
        });
        DbProxy {
            port,
            up,
            generation,
        }
    }

    pub fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            self.generation.send_modify(|g| *g += 1);
        }
    }
}
