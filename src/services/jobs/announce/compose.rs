//! The new-post email: MJML rendered with `mrml` (responsive HTML with inlined styles) and its
//! plain-text part, with the one-click unsubscribe link.

use super::*;

/// The two renderings of a post's email: the full text and the teaser.
pub struct Composed {
    pub author_name: String,
    pub title: String,
    pub url: String,
    pub subscribe_url: String,
    pub(super) full: (String, String),
    pub(super) teaser: (String, String),
    pub(super) locked: bool,
    /// Rendered HTML by (full text, reason line), with [`UNSUBSCRIBE_SLOT`] for the link: MJML is
    /// rendered once per kind of reader, not once per email.
    pub(super) rendered: std::sync::Mutex<HashMap<(bool, String), String>>,
}

/// Stands for the unsubscribe address in a rendered email until it is filled in.
pub(super) const UNSUBSCRIBE_SLOT: &str = "https://unsubscribe.invalid/slot";

/// The MJML of a post's email around `content` (already sanitised HTML).
pub(super) fn mjml(title: &str, byline: &str, content: &str, footer: &str) -> String {
    format!(
        r##"<mjml>
  <mj-head>
    <mj-title>{title}</mj-title>
    <mj-attributes>
      <mj-all font-family="Georgia, 'Times New Roman', serif" />
      <mj-text font-size="17px" line-height="1.6" color="#1f2328" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f5f5f4" width="640px">
    <mj-section background-color="#ffffff" padding="24px 8px">
      <mj-column>
        <mj-text font-size="13px" color="#57606a">{byline}</mj-text>
        <mj-text>{content}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="8px">
      <mj-column>
        <mj-text font-size="12px" color="#57606a">{footer}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>"##
    )
}

/// Renders MJML to HTML (styles inline, responsive); `None` when it cannot be rendered.
pub fn render_mjml(source: &str) -> Option<String> {
    let parsed = mrml::parse(source).ok()?;
    parsed
        .element
        .render(&mrml::prelude::render::RenderOptions::default())
        .ok()
}

/// XHTML-friendly markup for MJML's parser: void elements closed.
pub(super) fn closed_voids(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let tag = &rest[start..start + end + 1];
        let name: String = tag[1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let void = matches!(
            name.as_str(),
            "br" | "hr" | "img" | "source" | "input" | "meta" | "link" | "wbr" | "col"
        );
        if void && !tag.ends_with("/>") {
            out.push_str(&tag[..tag.len() - 1]);
            out.push_str(" />");
        } else {
            out.push_str(tag);
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

impl Composed {
    /// Builds both renderings of `post`.
    pub async fn of(state: &AppState, post: &Post, author_name: &str) -> anyhow::Result<Self> {
        let view = crate::services::posts::render_one(state, post.clone())
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let raw = serde_json::to_string(&view)?;
        let guest = PublicPost::from_json(&raw)
            .ok_or_else(|| anyhow::anyhow!("a post's view could not be read"))?;
        let mut whole = guest.clone();
        whole.blocks = post.blocks.clone();
        whole.locked = false;
        let site = Site::new(&state.settings.server.public_url);
        let url = state.settings.public_link(&format!("/post/{}", post.slug));
        let subscribe_url = state
            .settings
            .public_link(&format!("/plans/{}", post.author.to_hex()));
        let locked = post.audience == Audience::Subscribers;
        let full_html = content_html(&site, &whole);
        let full_text = plain_text_of(&post.blocks);
        let (teaser_html, teaser_text) = if locked {
            (
                format!(
                    "<p>{}</p><p><strong>This post is for paying subscribers.</strong> <a href=\"{}\">Subscribe to read it all</a>.</p>",
                    escape(&guest.excerpt),
                    escape(&subscribe_url)
                ),
                format!(
                    "{}\n\nThis post is for paying subscribers. Subscribe to read it all: {subscribe_url}",
                    guest.excerpt
                ),
            )
        } else {
            (full_html.clone(), full_text.clone())
        };
        Ok(Composed {
            author_name: author_name.to_string(),
            title: post.title.clone(),
            url,
            subscribe_url,
            full: (full_html, full_text),
            teaser: (teaser_html, teaser_text),
            locked,
            rendered: std::sync::Mutex::new(HashMap::new()),
        })
    }

    /// The subject, text and HTML for one reader (`full`: a paying subscriber), with their
    /// unsubscribe and preferences links.
    pub fn message(
        &self,
        full: bool,
        why: &str,
        unsubscribe: &str,
        manage: &str,
    ) -> (String, String, String) {
        let (html, text) = if full || !self.locked {
            &self.full
        } else {
            &self.teaser
        };
        let subject = format!("{}: {}", self.author_name, self.title);
        let body = format!(
            "{title}\nby {author}\n\n{text}\n\nRead it on Pressroom: {url}\n\n--\n{why}\nStop emails from {author} (one click): {unsubscribe}\nManage all your email choices: {manage}\n",
            title = self.title,
            author = self.author_name,
            url = self.url,
        );
        let full = full || !self.locked;
        let key = (full, why.to_string());
        let cached = self.rendered.lock().ok().and_then(|m| m.get(&key).cloned());
        let template = match cached {
            Some(t) => t,
            None => {
                let t = self.render(html, why, manage);
                if let Ok(mut m) = self.rendered.lock() {
                    m.insert(key, t.clone());
                }
                t
            }
        };
        let rendered = template.replace(UNSUBSCRIBE_SLOT, &escape(unsubscribe));
        (subject, body, rendered)
    }

    /// The HTML of one kind of reader, the unsubscribe link left as [`UNSUBSCRIBE_SLOT`].
    pub(super) fn render(&self, html: &str, why: &str, manage: &str) -> String {
        let footer = format!(
            "{why} <a href=\"{u}\">Stop emails from {a}</a> · <a href=\"{m}\">Manage your email choices</a>",
            why = escape(why),
            u = UNSUBSCRIBE_SLOT,
            a = escape(&self.author_name),
            m = escape(manage),
        );
        let byline = format!(
            "New from {} · <a href=\"{}\">Read on Pressroom</a>",
            escape(&self.author_name),
            escape(&self.url)
        );
        let content = closed_voids(html);
        render_mjml(&mjml(&escape(&self.title), &byline, &content, &footer)).unwrap_or_else(|| {
            format!(
                "<!doctype html><html><body style=\"font-family:Georgia,serif;max-width:640px;margin:auto\"><p style=\"color:#57606a\">{byline}</p>{html}<p style=\"font-size:12px;color:#57606a\">{footer}</p></body></html>"
            )
        })
    }
}

/// Pushes the delivery figures of a post to its author's tabs.
pub(super) fn push_figures(state: &AppState, a: &Announcement) {
    crate::live::post_delivery_updated(
        &state.realtime,
        &a.author.to_hex(),
        PostDeliveryUpdated {
            post_id: a.id.to_hex(),
            notices: a.notices,
            emails_sent: a.emails_sent,
            emails_failed: a.emails_failed,
            done: a.phase == Phase::Done,
        },
    );
}
