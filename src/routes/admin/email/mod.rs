//! Email delivery for administrators (seed 001 §7): one address's messages, every message by
//! type, and sending the failed ones of a type again.

pub mod retry;
pub mod statuses;

use crate::services::email_retry::{mail_type, EmailLogView};
