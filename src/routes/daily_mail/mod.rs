//! `/api/dailyMail/*`: the daily post email's report for administrators and its one-click
//! unsubscribe link (see `jobs::daily_mail`).

pub mod report;
pub mod unsubscribe;
