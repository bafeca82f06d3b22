//! Accounts: signing up and in (passwords, codes by mail, Google), the account's own security and
//! sessions, its profile, the people screens and its activity.

mod activity;
mod auth;
mod google;
mod otp;
mod passkeys;
mod people;
mod security;
mod user;
