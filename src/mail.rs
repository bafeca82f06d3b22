//! Outgoing mail through lettre: `.eml` files in development, SMTP elsewhere. Every message is
//! recorded in the email log with its outcome.

use std::time::Duration;

use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use mongodb::bson::oid::ObjectId;
use secrecy::ExposeSecret;

use crate::config::{MailSettings, MailTransportKind, SmtpSecurity};
use crate::persistence::email_logs::{self, EmailLog};
use crate::persistence::{now, Db};

/// Pause between attempts, multiplied by the attempt number.
const RETRY_BACKOFF: Duration = Duration::from_millis(250);
/// Longest a single SMTP exchange may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(10);

enum Transport {
    File(AsyncFileTransport<Tokio1Executor>),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

/// Sends mail and records each message.
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    max_attempts: u32,
    db: Db,
}

/// What kind of message, as recorded in the email log.
#[derive(Debug, Clone, Copy)]
pub enum MailKind {
    VerifyOtp,
    ResetOtp,
    Welcome,
}

impl MailKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::VerifyOtp => "verify_otp",
            MailKind::ResetOtp => "reset_otp",
            MailKind::Welcome => "welcome",
        }
    }
}

impl Mailer {
    pub fn new(settings: &MailSettings, db: Db) -> anyhow::Result<Self> {
        let transport = match settings.transport {
            MailTransportKind::File => {
                std::fs::create_dir_all(&settings.outbox_dir)?;
                Transport::File(AsyncFileTransport::new(&settings.outbox_dir))
            }
            MailTransportKind::Smtp => {
                let host = settings.smtp_host.as_str();
                let mut builder = match settings.smtp_security {
                    SmtpSecurity::None => {
                        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
                    }
                    SmtpSecurity::Starttls => {
                        AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host)?
                    }
                    SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host)?,
                }
                .port(settings.smtp_port)
                .timeout(Some(SMTP_TIMEOUT));
                if !settings.smtp_username.is_empty() {
                    builder = builder.credentials(Credentials::new(
                        settings.smtp_username.clone(),
                        settings.smtp_password.expose_secret().to_string(),
                    ));
                }
                Transport::Smtp(builder.build())
            }
        };
        let from: Mailbox = settings
            .from
            .parse()
            .map_err(|e| anyhow::anyhow!("mail.from is not a valid address: {e}"))?;
        Ok(Self {
            transport,
            from,
            max_attempts: settings.max_attempts.max(1),
            db,
        })
    }

    async fn deliver(&self, message: &Message) -> Result<(), String> {
        match &self.transport {
            Transport::File(t) => t
                .send(message.clone())
                .await
                .map(|id| {
                    tracing::info!(file = %format!("{id}.eml"), "mail written to the outbox");
                })
                .map_err(|e| e.to_string()),
            Transport::Smtp(t) => t
                .send(message.clone())
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }

    /// Sends a plain-text message, retrying a few times, and records the outcome. Returns whether
    /// it was delivered.
    #[tracing::instrument(skip(self, body), fields(kind = kind.as_str()))]
    pub async fn send(&self, kind: MailKind, to: &str, subject: &str, body: String) -> bool {
        let mut log = EmailLog {
            id: ObjectId::new(),
            email: to.to_string(),
            kind: kind.as_str().to_string(),
            subject: subject.to_string(),
            success: false,
            error: None,
            attempts: 0,
            stop_email_attempts: false,
            created_at: now(),
        };
        let message = to
            .parse::<Mailbox>()
            .map_err(|e| e.to_string())
            .and_then(|mailbox| {
                Message::builder()
                    .from(self.from.clone())
                    .to(mailbox)
                    .subject(subject)
                    .header(ContentType::TEXT_PLAIN)
                    .body(body)
                    .map_err(|e| e.to_string())
            });
        match message {
            Err(e) => {
                log.error = Some(e);
                log.stop_email_attempts = true;
            }
            Ok(message) => {
                for attempt in 1..=self.max_attempts {
                    log.attempts = attempt as i32;
                    match self.deliver(&message).await {
                        Ok(()) => {
                            log.success = true;
                            log.error = None;
                            break;
                        }
                        Err(e) => {
                            tracing::warn!(attempt, error = %e, "mail delivery failed");
                            log.error = Some(e);
                            if attempt < self.max_attempts {
                                tokio::time::sleep(RETRY_BACKOFF * attempt).await;
                            }
                        }
                    }
                }
                log.stop_email_attempts = !log.success;
            }
        }
        if let Err(e) = email_logs::record(&self.db, &log).await {
            tracing::warn!(error = %e, "could not record an email log entry");
        }
        log.success
    }
}
