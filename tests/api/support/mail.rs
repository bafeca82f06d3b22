//! Mail as the SMTP sink delivered it to its Maildir: waiting for a message, counting them, and
//! the codes they carry.

use std::path::Path;
use std::time::{Duration, Instant};

use super::app::TestApp;

impl TestApp {
    /// Waits for the newest message to `to` in the SMTP sink and returns its whole text.
    pub async fn wait_for_mail(&self, to: &str, newer_than: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let mails = mails_to(&self.maildir, to);
            if mails.len() > newer_than {
                return mails.last().cloned().unwrap();
            }
            assert!(Instant::now() < deadline, "no mail to {to} arrived");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn mail_count(&self, to: &str) -> usize {
        mails_to(&self.maildir, to).len()
    }
}

/// Messages in the Maildir addressed to `to`, oldest first.
fn mails_to(maildir: &Path, to: &str) -> Vec<String> {
    let mut found: Vec<(std::time::SystemTime, String)> = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(entries) = std::fs::read_dir(maildir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let addressed = text.lines().take_while(|l| !l.is_empty()).any(|l| {
                l.to_ascii_lowercase().starts_with("to:")
                    && l.to_ascii_lowercase().contains(&to.to_ascii_lowercase())
            });
            if addressed {
                let at = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                found.push((at, text));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, t)| t).collect()
}

/// The six-digit code in a message.
pub fn code_in(mail: &str) -> String {
    let marker = "code is ";
    let start = mail.find(marker).expect("a code in the mail") + marker.len();
    let code: String = mail[start..].chars().take(6).collect();
    assert!(code.chars().all(|c| c.is_ascii_digit()), "code {code}");
    code
}

/// The text of a mail with quoted-printable soft breaks undone.
pub fn decoded(mail: &str) -> String {
    mail.replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
}

/// The value of a header of a raw mail.
pub fn header(mail: &str, name: &str) -> Option<String> {
    let lower = format!("{}:", name.to_ascii_lowercase());
    mail.lines()
        .take_while(|l| !l.is_empty())
        .find(|l| l.to_ascii_lowercase().starts_with(&lower))
        .map(|l| l[lower.len()..].trim().to_string())
}
