//! Administration: who may use the administrators' routes, users, posts and their moderation,
//! contact messages and reports, email status and retries, site reports and the dashboards.

mod access;
mod appeals;
mod contact_reports;
mod dashboard;
mod email;
mod moderation;
mod posts;
mod reports_data;
mod users;
