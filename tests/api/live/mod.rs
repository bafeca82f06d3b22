//! Live features: notifications, banners, locations, feedback, guest visits and the cluster's
//! presence bookkeeping.

mod banners;
mod cluster;
mod feedback;
mod guest;
mod locations;
mod notifications;
mod push;
