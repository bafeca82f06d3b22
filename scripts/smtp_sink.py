"""The SMTP sink of the tests: aiosmtpd's Maildir handler, which stores every message it accepts,
plus refusals on demand so delivery failures can be tested against a real SMTP exchange.

A recipient whose local part starts with `refuse-once-4xx` is refused once with a temporary
error (451) at RCPT and accepted afterwards; `refuse-once-5xx` is refused once with a permanent
error (550); `refuse-always` is refused every time with 451. Run it as
`python -m aiosmtpd -n -l HOST:PORT -c smtp_sink.RefusingMailbox MAILDIR` with this folder on
PYTHONPATH.
"""

from aiosmtpd.handlers import Mailbox

TEMPORARY_ONCE = "refuse-once-4xx"
PERMANENT_ONCE = "refuse-once-5xx"
ALWAYS = "refuse-always"


class RefusingMailbox(Mailbox):
    """A Maildir sink that refuses the recipients named above as they ask."""

    def __init__(self, mail_dir, message_class=None):
        super().__init__(mail_dir, message_class)
        self.refused = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        if local.startswith(ALWAYS):
            return "451 4.3.0 Mailbox temporarily unavailable, try again later"
        for prefix, answer in (
            (TEMPORARY_ONCE, "451 4.3.0 Mailbox temporarily unavailable, try again later"),
            (PERMANENT_ONCE, "550 5.1.1 Mailbox unavailable"),
        ):
            if local.startswith(prefix) and address.lower() not in self.refused:
                self.refused.add(address.lower())
                return answer
        envelope.rcpt_tos.append(address)
        return "250 OK"
