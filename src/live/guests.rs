//! The guest visit actor: collects counted guest visits and tells the administrators
//! (`guestVisitUpdate`) at most once per second, with each guest's latest count.

use std::collections::HashMap;
use std::time::Duration;

use actix::{Actor, AsyncContext, Context, Handler, Message};
use pressroom_actors::events::GuestVisitUpdate;
use pressroom_actors::Realtime;

/// Visits counted within this window are pushed together, one event per guest.
pub const GUEST_VISIT_DEBOUNCE: Duration = Duration::from_secs(1);

/// Owns the visits waiting to be pushed.
pub struct GuestVisitActor {
    realtime: Realtime,
    pending: HashMap<String, GuestVisitUpdate>,
    /// Order in which guests first appeared in the window.
    order: Vec<String>,
    waiting: bool,
}

impl GuestVisitActor {
    pub fn new(realtime: Realtime) -> Self {
        GuestVisitActor {
            realtime,
            pending: HashMap::new(),
            order: Vec::new(),
            waiting: false,
        }
    }

    fn flush(&mut self) {
        self.waiting = false;
        for guest in self.order.drain(..) {
            if let Some(visit) = self.pending.remove(&guest) {
                crate::live::guest_visit_updated(&self.realtime, visit);
            }
        }
    }
}

impl Actor for GuestVisitActor {
    type Context = Context<Self>;
}

/// Sent by `POST /public/guest/visit` after counting a visit.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Visited(pub GuestVisitUpdate);

impl Handler<Visited> for GuestVisitActor {
    type Result = ();

    #[tracing::instrument(skip_all)]
    fn handle(&mut self, msg: Visited, ctx: &mut Context<Self>) {
        let guest = msg.0.guest_id.clone();
        if self.pending.insert(guest.clone(), msg.0).is_none() {
            self.order.push(guest);
        }
        if !self.waiting {
            self.waiting = true;
            ctx.run_later(GUEST_VISIT_DEBOUNCE, |act, _| act.flush());
        }
    }
}
