//! Outgoing mail through lettre: `.eml` files in development, SMTP elsewhere. Every message is
//! recorded in the email log with its outcome, and a failed one can be sent again
//! ([`Mailer::resend`]).
//!
//! A delivery is tried up to `mail.max_attempts` times. A permanent refusal (an SMTP 5xx answer,
//! an address that cannot be used) stops at once and marks the record `stopEmailAttempts`; a
//! temporary one (a 4xx answer, a server that cannot be reached) leaves it open for an
//! administrator's retry. `stopEmailAttempts` means "given up": a delivered message keeps it
//! false (there is nothing left to try).

use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use mongodb::bson::oid::ObjectId;
use secrecy::ExposeSecret;

use crate::config::{MailSettings, MailTransportKind, SmtpSecurity};
use crate::persistence::email_logs::{self, EmailLog, Outcome};
use crate::persistence::{now, Db};

/// Pause between attempts, multiplied by the attempt number.
const RETRY_BACKOFF: Duration = Duration::from_millis(250);
/// Longest a single SMTP exchange may take.
const SMTP_TIMEOUT: Duration = Duration::from_secs(10);
/// SMTP connections kept open and reused (each message no longer pays for its own connection,
/// greeting and `QUIT`): as many as the new-post worker sends at once.
const SMTP_CONNECTIONS: u32 = 16;
/// An idle pooled connection is closed after this long.
const SMTP_IDLE: Duration = Duration::from_secs(30);
/// Administrator retries after which a message that still fails is given up.
pub const MAX_RETRIES: i32 = 5;

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

/// What kind of message, as recorded in the email log (`type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    VerifyOtp,
    ResetOtp,
    Welcome,
    ContactReply,
    ReportNotice,
    DailyPost,
    RenewalReminder,
    /// Account security: new sign-in, two-factor changes, deletion, data export.
    Security,
    /// A new post of an author the addressee follows or subscribed to by email.
    NewPost,
    /// The confirmation of an email-only subscription (double opt-in).
    NewsletterConfirm,
}

impl MailKind {
    /// Every kind, for validating a `type` filter.
    pub const ALL: [MailKind; 10] = [
        MailKind::VerifyOtp,
        MailKind::ResetOtp,
        MailKind::Welcome,
        MailKind::ContactReply,
        MailKind::ReportNotice,
        MailKind::DailyPost,
        MailKind::RenewalReminder,
        MailKind::Security,
        MailKind::NewPost,
        MailKind::NewsletterConfirm,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::VerifyOtp => "verify_otp",
            MailKind::ResetOtp => "reset_otp",
            MailKind::Welcome => "welcome",
            MailKind::ContactReply => "contact_reply",
            MailKind::ReportNotice => "report_notice",
            MailKind::DailyPost => "daily_post",
            MailKind::RenewalReminder => "renewal_reminder",
            MailKind::Security => "security",
            MailKind::NewPost => "new_post",
            MailKind::NewsletterConfirm => "newsletter_confirm",
        }
    }

    /// The kind named `raw` (as stored).
    pub fn parse(raw: &str) -> Option<MailKind> {
        MailKind::ALL.into_iter().find(|k| k.as_str() == raw.trim())
    }

    /// Whether the text carries a one-time code, and so is never stored.
    pub fn carries_code(self) -> bool {
        matches!(self, MailKind::VerifyOtp | MailKind::ResetOtp)
    }
}

/// A message to send.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub kind: MailKind,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The account it is for, when there is one.
    pub user_id: Option<ObjectId>,
    /// A one-click unsubscribe address (RFC 8058 `List-Unsubscribe` headers).
    pub unsubscribe_url: Option<String>,
    /// An HTML rendering sent beside the text (`multipart/alternative`).
    pub html: Option<String>,
}

impl Outgoing {
    pub fn new(kind: MailKind, to: &str, subject: &str, body: String) -> Self {
        Outgoing {
            kind,
            to: to.to_string(),
            subject: subject.to_string(),
            body,
            user_id: None,
            unsubscribe_url: None,
            html: None,
        }
    }

    pub fn for_user(mut self, user: ObjectId) -> Self {
        self.user_id = Some(user);
        self
    }
}

/// Why one delivery failed.
struct Failure {
    message: String,
    permanent: bool,
}

const LIST_UNSUBSCRIBE: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe");
const LIST_UNSUBSCRIBE_POST: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe-Post");

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
                .timeout(Some(SMTP_TIMEOUT))
                .pool_config(
                    lettre::transport::smtp::PoolConfig::new()
                        .max_size(SMTP_CONNECTIONS)
                        .idle_timeout(SMTP_IDLE),
                );
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

    async fn deliver(&self, message: &Message) -> Result<(), Failure> {
        match &self.transport {
            Transport::File(t) => t
                .send(message.clone())
                .await
                .map(|id| {
                    tracing::info!(file = %format!("{id}.eml"), "mail written to the outbox");
                })
                .map_err(|e| Failure {
                    message: e.to_string(),
                    permanent: false,
                }),
            Transport::Smtp(t) => t
                .send(message.clone())
                .await
                .map(|_| ())
                .map_err(|e| Failure {
                    permanent: e.is_permanent(),
                    message: e.to_string(),
                }),
        }
    }

    fn build(
        &self,
        to: &str,
        subject: &str,
        body: String,
        unsubscribe: Option<&str>,
        html: Option<&str>,
    ) -> Result<Message, String> {
        let mailbox = to.parse::<Mailbox>().map_err(|e| e.to_string())?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(mailbox)
            .subject(subject);
        if let Some(url) = unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(LIST_UNSUBSCRIBE, format!("<{url}>")))
                .raw_header(HeaderValue::new(
                    LIST_UNSUBSCRIBE_POST,
                    "List-Unsubscribe=One-Click".to_string(),
                ));
        }
        match html {
            Some(html) => builder
                .multipart(MultiPart::alternative_plain_html(body, html.to_string()))
                .map_err(|e| e.to_string()),
            None => builder
                .header(ContentType::TEXT_PLAIN)
                .body(body)
                .map_err(|e| e.to_string()),
        }
    }

    /// Builds and delivers a message, trying up to `max_attempts` times unless a refusal is
    /// permanent.
    async fn attempt(
        &self,
        to: &str,
        subject: &str,
        body: String,
        unsubscribe: Option<&str>,
        html: Option<&str>,
    ) -> Outcome {
        let message = match self.build(to, subject, body, unsubscribe, html) {
            Ok(m) => m,
            Err(e) => {
                return Outcome {
                    success: false,
                    error: Some(e),
                    attempts: 0,
                    stop: true,
                    at: now(),
                }
            }
        };
        let mut outcome = Outcome {
            success: false,
            error: None,
            attempts: 0,
            stop: false,
            at: now(),
        };
        for attempt in 1..=self.max_attempts {
            outcome.attempts = attempt as i32;
            outcome.at = now();
            match self.deliver(&message).await {
                Ok(()) => {
                    outcome.success = true;
                    outcome.error = None;
                    break;
                }
                Err(failure) => {
                    tracing::warn!(attempt, permanent = failure.permanent, error = %failure.message, "mail delivery failed");
                    outcome.error = Some(failure.message);
                    if failure.permanent {
                        outcome.stop = true;
                        break;
                    }
                    if attempt < self.max_attempts {
                        tokio::time::sleep(RETRY_BACKOFF * attempt).await;
                    }
                }
            }
        }
        outcome
    }

    /// Sends a plain-text message and records the outcome. Returns whether it was delivered.
    pub async fn send(&self, kind: MailKind, to: &str, subject: &str, body: String) -> bool {
        self.send_mail(Outgoing::new(kind, to, subject, body))
            .await
            .success
    }

    /// Sends a message and records it (its text too, unless it carries a one-time code).
    /// Returns the record.
    #[tracing::instrument(skip(self, mail), fields(kind = mail.kind.as_str()))]
    pub async fn send_mail(&self, mail: Outgoing) -> EmailLog {
        let log = self.send_unrecorded(mail).await;
        if let Err(e) = email_logs::record(&self.db, &log).await {
            tracing::warn!(error = %e, "could not record an email log entry");
        }
        log
    }

    /// Sends a message and returns its email log entry without storing it: the caller stores a
    /// batch of them at once ([`email_logs::record_many`]).
    pub async fn send_unrecorded(&self, mail: Outgoing) -> EmailLog {
        let kept_body = (!mail.kind.carries_code()).then(|| mail.body.clone());
        let html = mail.html.clone();
        let outcome = self
            .attempt(
                &mail.to,
                &mail.subject,
                mail.body,
                mail.unsubscribe_url.as_deref(),
                mail.html.as_deref(),
            )
            .await;
        count_outcome(&outcome);
        EmailLog {
            id: ObjectId::new(),
            email: mail.to,
            kind: mail.kind.as_str().to_string(),
            subject: mail.subject,
            success: outcome.success,
            error: outcome.error,
            attempts: outcome.attempts,
            stop_email_attempts: outcome.stop,
            created_at: now(),
            body: kept_body,
            user_id: mail.user_id,
            unsubscribe_url: mail.unsubscribe_url,
            // Kept only for a failed message, which may be sent again.
            html: html.filter(|_| !outcome.success),
            retries: 0,
            last_attempt_at: Some(outcome.at),
            sent_at: outcome.success.then_some(outcome.at),
            retrying_at: None,
        }
    }

    /// Sends a claimed failed message again, with `body` (the stored text, or a new one with a
    /// fresh code), and stores the outcome on its record. After [`MAX_RETRIES`] failed retries the
    /// message is given up.
    pub async fn resend(&self, log: &EmailLog, subject: &str, body: String) -> Outcome {
        let mut outcome = self
            .attempt(
                &log.email,
                subject,
                body,
                log.unsubscribe_url.as_deref(),
                log.html.as_deref(),
            )
            .await;
        if !outcome.success && log.retries + 1 >= MAX_RETRIES {
            outcome.stop = true;
        }
        self.store_retry(log, outcome).await
    }

    /// Records that a claimed message is not sent again, for `reason`.
    pub async fn give_up(&self, log: &EmailLog, reason: &str) -> Outcome {
        let outcome = Outcome {
            success: false,
            error: Some(reason.to_string()),
            attempts: 0,
            stop: true,
            at: now(),
        };
        self.store_retry(log, outcome).await
    }

    async fn store_retry(&self, log: &EmailLog, outcome: Outcome) -> Outcome {
        count_outcome(&outcome);
        if let Err(e) = email_logs::finish_retry(&self.db, log.id, &outcome).await {
            tracing::warn!(error = %e, "could not record a retried email");
        }
        outcome
    }
}

/// Counts a sending outcome in `pressroom_mail_total`: `sent`, `failed` (to be retried) or
/// `suppressed` (not to be tried again: a refused address, or out of retries).
fn count_outcome(outcome: &Outcome) {
    let label = match (outcome.success, outcome.stop) {
        (true, _) => "sent",
        (false, false) => "failed",
        (false, true) => "suppressed",
    };
    crate::metrics::MAIL.with_label_values(&[label]).inc();
}
