//! List pages (home, tag, category) as the web app draws them: the shell's bars, the page's
//! heading and its first screen of post cards, in the app's own markup and classes
//! (`web/src/components/post-card.tsx`, `post-feed.tsx`, `app/shell/*`), so the app's stylesheet
//! lays them out exactly as it lays out what the app renders in their place: the app takes the
//! page over without anything moving. Pure: the caller reads the posts and the time.

use chrono::{DateTime, Utc};

use super::article::ImageSizes;
use super::html::escape;
use super::model::{author_path, category_path, encode_segment, post_path, tag_path, PublicPost};
use super::picture::{Picture, CARD_SIZES};

/// Tags a card shows at most.
const CARD_TAGS: usize = 4;
/// Pixels of a card's avatar (`<Avatar size={24}>`).
const AVATAR: u32 = 24;

/// `Intl.RelativeTimeFormat('en', { numeric: 'auto' })` as `relativeTime` uses it
/// (`web/src/lib/format.ts`): "3 minutes ago", "yesterday", "just now".
pub fn relative_time(iso: &str, now: DateTime<Utc>) -> String {
    let Ok(at) = DateTime::parse_from_rfc3339(iso) else {
        return "Unknown time".into();
    };
    let ms = (at.with_timezone(&Utc) - now).num_milliseconds();
    let seconds = js_round(ms as f64 / 1000.0);
    if seconds.abs() < 10 {
        return "just now".into();
    }
    const UNITS: [(&str, i64); 7] = [
        ("year", 365 * 24 * 3600),
        ("month", 30 * 24 * 3600),
        ("week", 7 * 24 * 3600),
        ("day", 24 * 3600),
        ("hour", 3600),
        ("minute", 60),
        ("second", 1),
    ];
    for (unit, size) in UNITS {
        if seconds.abs() >= size {
            let n = js_round(seconds as f64 / size as f64);
            return match (unit, n) {
                ("day", -1) => "yesterday".into(),
                ("day", 1) => "tomorrow".into(),
                ("week" | "month" | "year", -1) => format!("last {unit}"),
                ("week" | "month" | "year", 1) => format!("next {unit}"),
                (_, n) if n < 0 => format!("{} {unit}{} ago", -n, plural(-n)),
                (_, n) => format!("in {n} {unit}{}", plural(n)),
            };
        }
    }
    "just now".into()
}

fn plural(n: i64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// JavaScript's `Math.round` (halves toward +∞).
fn js_round(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// `compactCount`: 1234 → "1.2K" (`Intl.NumberFormat('en', { notation: 'compact',
/// maximumFractionDigits: 1 })`).
pub fn compact_count(n: i64) -> String {
    let n = n.max(0) as f64;
    if n < 1000.0 {
        return format!("{n}");
    }
    let units = [(1e3, "K"), (1e6, "M"), (1e9, "B"), (1e12, "T")];
    let mut i = units.iter().rposition(|(size, _)| n >= *size).unwrap_or(0);
    let mut value = (n / units[i].0 * 10.0).round() / 10.0;
    if value >= 1000.0 && i + 1 < units.len() {
        i += 1;
        value = (n / units[i].0 * 10.0).round() / 10.0;
    }
    let text = format!("{value:.1}");
    format!("{}{}", text.strip_suffix(".0").unwrap_or(&text), units[i].1)
}

/// `initials`: "Ann Lee" → "AL", "Ann" → "AN", nothing → "?".
pub fn initials(name: &str) -> String {
    let parts: Vec<&str> = name.split_whitespace().collect();
    let letters: String = match parts.as_slice() {
        [] => return "?".into(),
        [one] => one.chars().take(2).collect(),
        [first, .., last] => first.chars().take(1).chain(last.chars().take(1)).collect(),
    };
    letters.to_uppercase()
}

/// `readingTimeLabel`.
fn reading_time_label(minutes: i64) -> String {
    format!("{} min read", minutes.max(1))
}

/// `cardExcerpt`: the excerpt without the title repeated in front of it.
pub fn card_excerpt(title: &str, excerpt: &str) -> String {
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squash(excerpt);
    let heading = squash(title);
    let n = heading.chars().count();
    if heading.is_empty() {
        return text;
    }
    let head: String = text.chars().take(n).collect();
    if head.to_lowercase() != heading.to_lowercase() {
        return text;
    }
    let rest: String = text.chars().skip(n).collect();
    if rest.chars().next().is_some_and(char::is_alphanumeric) {
        return text;
    }
    rest.trim_start_matches(|c: char| c.is_whitespace() || ".:;,!?-–—".contains(c))
        .to_string()
}

const HEART: &str = "<svg width=\"16\" height=\"16\" viewBox=\"0 0 24 24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7Z\"></path></svg>";
const COMMENT: &str = "<svg width=\"16\" height=\"16\" viewBox=\"0 0 24 24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z\"></path></svg>";

/// `<Avatar size={24}>`: the image, or the initials drawn by CSS.
fn avatar(name: &str, src: Option<&str>) -> String {
    avatar_of(name, src, AVATAR)
}

/// `<Avatar size>`.
fn avatar_of(name: &str, src: Option<&str>, size: u32) -> String {
    let style = format!(
        "width:{size}px;height:{size}px;font-size:{}px",
        (size as f64 * 0.4).round()
    );
    match src.filter(|s| !s.is_empty()) {
        Some(src) => format!(
            "<img class=\"avatar\" src=\"{}\" alt=\"\" width=\"{size}\" height=\"{size}\" style=\"{style}\">",
            escape(src)
        ),
        None => format!(
            "<span class=\"avatar avatar--initials\" style=\"{style}\" aria-hidden=\"true\" data-initials=\"{}\"></span>",
            escape(&initials(name))
        ),
    }
}

/// One card (`<PostCard>`), in its grid cell; the first of a list (`first`) fetches its picture
/// first, as the app's does.
pub fn post_card(
    p: &PublicPost,
    sizes: &dyn ImageSizes,
    now: DateTime<Utc>,
    first: bool,
) -> String {
    let href = escape(&post_path(&p.slug));
    let mut b = String::with_capacity(2048);
    b.push_str(&format!(
        "<li><article class=\"post-card\" aria-labelledby=\"post-{}-title\">",
        escape(&p.id)
    ));
    if let Some(thumb) = p.thumbnail.as_deref().filter(|t| !t.is_empty()) {
        let meta = sizes.meta_of(thumb);
        let picture = Picture::new(thumb, "", meta.as_ref())
            .sizes(CARD_SIZES)
            .class("post-card__thumb");
        let picture = if first { picture.priority() } else { picture };
        b.push_str(&format!(
            "<a href=\"{href}\" tabindex=\"-1\" aria-hidden=\"true\" class=\"post-card__thumb-link\">{}</a>",
            picture.html()
        ));
    }
    b.push_str("<div class=\"post-card__top\">");
    if let Some(c) = &p.category {
        b.push_str(&format!(
            "<a href=\"{}\" class=\"category-pill\">{}</a>",
            escape(&category_path(&c.slug)),
            escape(&c.name)
        ));
    }
    b.push_str("</div>");
    b.push_str(&format!(
        "<h2 class=\"post-card__title\" id=\"post-{}-title\"><a href=\"{href}\">{}</a></h2>",
        escape(&p.id),
        escape(&p.title)
    ));
    let excerpt = card_excerpt(&p.title, &p.excerpt);
    if !excerpt.is_empty() {
        b.push_str(&format!(
            "<p class=\"post-card__excerpt\">{}</p>",
            escape(&excerpt)
        ));
    }
    if !p.tags.is_empty() {
        b.push_str("<ul class=\"tag-list\" aria-label=\"Tags\">");
        for tag in p.tags.iter().take(CARD_TAGS) {
            b.push_str(&format!(
                "<li><a href=\"{}\" class=\"tag\">#{}</a></li>",
                escape(&tag_path(tag)),
                escape(tag)
            ));
        }
        b.push_str("</ul>");
    }
    b.push_str(&format!(
        "<div class=\"post-card__meta\"><a href=\"{}\" class=\"post-card__author\">{}<span>{}</span></a><span class=\"muted\"><time datetime=\"{}\">{}</time> · {}</span></div>",
        escape(&author_path(&p.author.id)),
        avatar(&p.author.name, p.author.avatar.as_deref()),
        escape(&p.author.name),
        escape(&p.created_at),
        escape(&relative_time(&p.created_at, now)),
        reading_time_label(p.reading_time)
    ));
    b.push_str(&format!(
        "<div class=\"post-card__counts muted\"><span class=\"count\" title=\"Likes\">{HEART} {}<span class=\"visually-hidden\"> likes</span></span><span class=\"count\" title=\"Comments\">{COMMENT} {}<span class=\"visually-hidden\"> comments</span></span></div>",
        compact_count(p.likes_count),
        compact_count(p.comments_count)
    ));
    b.push_str("</article></li>");
    b
}

/// A list of cards with its empty state (`<PostFeed>`).
pub fn post_feed(
    label: &str,
    empty: &str,
    posts: &[PublicPost],
    sizes: &dyn ImageSizes,
    now: DateTime<Utc>,
) -> String {
    let mut b = format!(
        "<section class=\"post-feed\" aria-label=\"{}\" aria-busy=\"false\">",
        escape(label)
    );
    if posts.is_empty() {
        b.push_str(&format!(
            "<div class=\"feed-state muted\">{}</div>",
            escape(empty)
        ));
    } else {
        b.push_str("<ul class=\"post-grid\">");
        for (i, p) in posts.iter().enumerate() {
            b.push_str(&post_card(p, sizes, now, i == 0));
        }
        b.push_str("</ul>");
    }
    b.push_str("</section>");
    b
}

/// The feed links of a page (`<FeedLinks>`).
pub fn feed_links(base: &str, label: &str) -> String {
    format!(
        "<p class=\"feed-links muted\"><span>{}: </span><a href=\"{base}/feed.xml\" type=\"application/atom+xml\">Atom</a> · <a href=\"{base}/rss.xml\" type=\"application/rss+xml\">RSS</a></p>",
        escape(label),
        base = escape(base)
    )
}

/// The cookie consent bar as the app draws it for a reader who has not chosen yet
/// (`web/src/features/consent/cookie-consent-bar.tsx`), in the first paint rather than when the
/// app starts: fixed at the bottom of the screen, it is the largest thing a phone paints on some
/// pages, and drawn late it made the page's largest paint late. Its buttons wait for the app.
const CONSENT_BAR: &str = "<section class=\"consent-bar\" aria-label=\"Cookie consent\" id=\"first-paint-consent\">\
<p>We use cookies to keep you signed in and to understand how Pressroom is used. Read our <a href=\"/privacy\">Privacy Policy</a>.</p>\
<div class=\"consent-bar__actions\"><button type=\"button\" class=\"button button--ghost\" disabled>Decline</button>\
<button type=\"button\" class=\"button\" disabled>Accept</button></div></section>";

/// Takes the bar away before the first paint when this browser already holds a choice (the app
/// keeps it in `localStorage` under `userCookieConsent`, `readStoredConsent`). The page's only
/// inline script: the Content-Security-Policy allows it by its hash
/// (`crate::security_headers::CONTENT_SECURITY_POLICY`; a test compares the two).
pub const CONSENT_SCRIPT: &str = "try{var c=localStorage.getItem(\"userCookieConsent\");if(c===\"true\"||c===\"false\")document.getElementById(\"first-paint-consent\").remove()}catch(e){}";

/// The shell around a page as a guest first sees it (`<ShellLayout>`): the top bar (logo, log in,
/// sign up), the sections bar, and the page in `<main>`. The bars' controls that need the app
/// (search, theme, categories) hold their place until it starts.
pub fn app_frame(path: &str, page: &str) -> String {
    frame(path, page, true)
}

/// The shell without its sections bar (the pages that hide it, as an author's).
pub fn app_frame_without_sections(path: &str, page: &str) -> String {
    frame(path, page, false)
}

fn frame(path: &str, page: &str, sections: bool) -> String {
    let nav = |to: &str, label: &str| {
        let active = if to == path {
            " active\" aria-current=\"page"
        } else {
            ""
        };
        format!("<a class=\"nav-link{active}\" href=\"{to}\">{label}</a>")
    };
    format!(
        "<div class=\"shell\"><a href=\"#main\" class=\"skip-link\">Skip to content</a>\
<header class=\"top-bar\"><div class=\"top-bar__inner\"><a class=\"logo\" aria-label=\"Pressroom home\" href=\"/\"><img src=\"/logo.svg\" alt=\"\" class=\"logo__image\" width=\"28\" height=\"28\"><span class=\"logo__word\" aria-hidden=\"true\">Pressroom</span></a>\
<div class=\"top-bar__spacer\"></div>\
<a class=\"button button--ghost button--small\" href=\"/login\">Login</a><a class=\"button button--small\" href=\"/signup\">Sign Up</a></div></header>\
{}<main class=\"shell__main\" id=\"main\" tabindex=\"-1\">{page}</main></div>{CONSENT_BAR}<script>{CONSENT_SCRIPT}</script>",
        if sections {
            format!(
                "<nav class=\"secondary-bar\" aria-label=\"Sections\"><div class=\"secondary-bar__inner\"><div class=\"menu-anchor\"><button type=\"button\" class=\"button button--ghost button--small\" aria-haspopup=\"true\" aria-expanded=\"false\" disabled>Categories</button></div>{}{}{}{}</div></nav>",
                nav("/", "Home"),
                nav("/users", "Online"),
                nav("/about", "About"),
                nav("/contact", "Contact"),
            )
        } else {
            String::new()
        },
    )
}

/// A page of the app (`<Page title wide>`): its heading, what comes before the list, the list.
pub fn wide_page(title: &str, before: &str, list: &str) -> String {
    format!(
        "<section class=\"page page--wide\"><h1 class=\"page__title\">{}</h1>{before}{list}</section>",
        escape(title)
    )
}

/// The home page's head row: the feeds' tabs and the count of posts (`<HomePage>` for a guest).
pub fn home_head(all_posts: u64) -> String {
    format!(
        "<div class=\"home-head\"><div role=\"tablist\" aria-label=\"Feeds\" class=\"tabs\">\
<button type=\"button\" role=\"tab\" id=\"tab-latest\" aria-controls=\"panel-latest\" aria-selected=\"true\" tabindex=\"0\" class=\"tab tab--active\">Latest</button>\
<button type=\"button\" role=\"tab\" id=\"tab-trending\" aria-controls=\"panel-trending\" aria-selected=\"false\" tabindex=\"-1\" class=\"tab \">Trending</button></div>\
<dl class=\"post-counts\" aria-label=\"Post counts\" data-testid=\"post-counts\"><div><dt>All</dt><dd data-testid=\"count-all\">{}</dd></div></dl></div>",
        compact_count(all_posts as i64)
    )
}

/// The path of a tag's list for links (`encodeURIComponent` of the tag, as the app writes it).
pub fn tag_base(tag: &str) -> String {
    format!("/tag/{}", encode_segment(tag))
}

/// `safeHref` for a website: an absolute http(s) address without spaces or control characters.
fn safe_website(raw: &str) -> Option<&str> {
    let v = raw.trim();
    let ok = !v.is_empty()
        && !v
            .chars()
            .any(|c| c == '\\' || c.is_control() || c.is_whitespace())
        && (v.starts_with("https://") || v.starts_with("http://"))
        && v.len() > "https://".len();
    ok.then_some(v)
}

/// `formatDate` as an English reader's browser writes it ("Nov 26, 2026").
fn short_date(iso: &str) -> Option<String> {
    DateTime::parse_from_rfc3339(iso)
        .ok()
        .map(|d| d.format("%b %-d, %Y").to_string())
}

/// An author's page as a guest first sees it (`<AuthorProfilePage>` with `<ProfileHeader>`, the
/// feed links, the newsletter form, the tabs and `<ProfilePosts>`), from the profile as
/// `GET /api/user/get-single-user/{id}` gives it to a guest and the first page of their posts.
pub fn author_body(
    profile: &serde_json::Value,
    has_plans: bool,
    posts: &[PublicPost],
    total: u64,
    sizes: &dyn ImageSizes,
    now: DateTime<Utc>,
) -> String {
    let text = |k: &str| profile.get(k).and_then(|v| v.as_str()).unwrap_or("");
    let count = |k: &str| profile.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
    let id = text("_id");
    let name = text("name");
    let online = profile
        .get("isOnline")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let path = author_path(id);
    let mut b = String::with_capacity(8192);
    b.push_str("<section class=\"page page--wide\"><header class=\"profile-header\" data-testid=\"profile-header\"><div class=\"profile-header__avatar\">");
    b.push_str(&avatar_of(name, Some(text("avatar")), 96));
    let (dot, state) = if online {
        (" profile-header__dot--online", "Online")
    } else {
        ("", "Offline")
    };
    b.push_str(&format!(
        "<span class=\"profile-header__dot {dot}\" data-testid=\"online-dot\" data-online=\"{online}\" title=\"{state}\"></span></div><div class=\"profile-header__main\"><h1 class=\"profile-header__name\">{} <span class=\"presence {}\" role=\"status\" data-testid=\"presence\">{state}</span></h1>",
        escape(name),
        if online { "presence--online" } else { "" }
    ));
    if !text("bio").is_empty() {
        b.push_str(&format!(
            "<p class=\"profile-header__bio\">{}</p>",
            escape(text("bio"))
        ));
    }
    b.push_str("<p class=\"profile-header__facts muted small\">");
    if !text("region").is_empty() {
        b.push_str(&format!("<span>{}</span>", escape(text("region"))));
    }
    if let Some(site) = safe_website(text("website")) {
        let shown = site
            .strip_prefix("https://")
            .or_else(|| site.strip_prefix("http://"))
            .unwrap_or(site);
        b.push_str(&format!(
            "<a href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">{}</a>",
            escape(site),
            escape(shown)
        ));
    }
    if let Some(joined) = short_date(text("createdAt")) {
        b.push_str(&format!("<span>Joined {joined}</span>"));
    }
    b.push_str(&format!(
        "</p><dl class=\"profile-counts\" aria-label=\"Counts\"><div><dt>Followers</dt><dd data-testid=\"followers-count\">{}</dd></div><div><dt>Following</dt><dd data-testid=\"following-count\">{}</dd></div><div><dt>Posts</dt><dd data-testid=\"posts-count\">{}</dd></div></dl></div>",
        compact_count(count("followersCount")),
        compact_count(count("followingCount")),
        compact_count(count("totalPosts"))
    ));
    b.push_str(&format!(
        "<div class=\"profile-header__actions\"><a class=\"button button--small\" href=\"/login\">Log in to follow</a>{}</div></header>",
        if has_plans {
            format!(
                "<a class=\"button button--small button--ghost\" href=\"/plans/{}\">Subscribe</a>",
                escape(&encode_segment(id))
            )
        } else {
            String::new()
        }
    ));
    b.push_str(&feed_links(
        &path,
        &format!("Follow {name} in a feed reader"),
    ));
    b.push_str(&format!(
        "<form class=\"newsletter-form panel\" aria-labelledby=\"newsletter-title\" data-testid=\"newsletter-form\"><h2 id=\"newsletter-title\" class=\"section-title\">Get new posts from {} by email</h2><div class=\"newsletter-form__row\"><label for=\"newsletter-email\" class=\"visually-hidden\">Your email address</label><input id=\"newsletter-email\" type=\"email\" required autocomplete=\"email\" placeholder=\"you@example.com\" value=\"\"><button type=\"submit\" class=\"button\" disabled>Subscribe</button></div><p class=\"muted small\">We send a link to confirm first. Every email has a one-click unsubscribe link.</p></form>",
        escape(name)
    ));
    b.push_str("<div role=\"tablist\" aria-label=\"Profile\" class=\"tabs\">");
    for (i, (tab, label)) in [
        ("posts", "Posts"),
        ("followers", "Followers"),
        ("following", "Following"),
        ("achievements", "Achievements"),
    ]
    .iter()
    .enumerate()
    {
        let active = i == 0;
        b.push_str(&format!(
            "<button type=\"button\" role=\"tab\" id=\"tab-{tab}\" aria-controls=\"panel-{tab}\" aria-selected=\"{active}\" tabindex=\"{}\" class=\"tab {}\">{label}</button>",
            if active { "0" } else { "-1" },
            if active { "tab--active" } else { "" }
        ));
    }
    let whose = format!("{name}’s");
    b.push_str(&format!(
        "</div><div role=\"tabpanel\" id=\"panel-posts\" aria-labelledby=\"tab-posts\" class=\"profile-panel\"><section aria-label=\"Posts by {n}\"><div class=\"toolbar profile-posts__toolbar\" role=\"search\"><label for=\"profile-search\" class=\"visually-hidden\">Search {w} posts</label><input id=\"profile-search\" type=\"search\" placeholder=\"Search {w} posts\" value=\"\"><label for=\"profile-sort\" class=\"small\">Sort</label><select id=\"profile-sort\"><option value=\"newest\" selected>Newest</option><option value=\"oldest\">Oldest</option><option value=\"popular\">Popular</option></select><span class=\"muted small\" data-testid=\"posts-total\">{total} {}</span></div>",
        if total == 1 { "post" } else { "posts" },
        n = escape(name),
        w = escape(&whose),
    ));
    b.push_str(&post_feed(
        &format!("Posts by {name}"),
        &format!("{name} has not published a post yet."),
        posts,
        sizes,
        now,
    ));
    b.push_str("</section></div></section>");
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::article::NoSizes;

    #[test]
    fn relative_times_read_as_the_app_writes_them() {
        let now = DateTime::parse_from_rfc3339("2024-05-10T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let at = |s: &str| relative_time(s, now);
        assert_eq!(at("2024-05-10T11:59:55Z"), "just now");
        assert_eq!(at("2024-05-10T11:59:30Z"), "30 seconds ago");
        assert_eq!(at("2024-05-10T11:59:00Z"), "1 minute ago");
        assert_eq!(at("2024-05-10T09:00:00Z"), "3 hours ago");
        assert_eq!(at("2024-05-09T12:00:00Z"), "yesterday");
        assert_eq!(at("2024-05-03T12:00:00Z"), "last week");
        assert_eq!(at("2023-05-10T12:00:00Z"), "last year");
        assert_eq!(at("2024-05-10T15:00:00Z"), "in 3 hours");
        assert_eq!(at("not a date"), "Unknown time");
    }

    #[test]
    fn counts_are_compact_as_in_the_app() {
        assert_eq!(compact_count(0), "0");
        assert_eq!(compact_count(999), "999");
        assert_eq!(compact_count(1000), "1K");
        assert_eq!(compact_count(1234), "1.2K");
        assert_eq!(compact_count(15_350), "15.4K");
        assert_eq!(compact_count(999_999), "1M");
        assert_eq!(compact_count(2_500_000), "2.5M");
        assert_eq!(compact_count(-3), "0");
    }

    #[test]
    fn initials_and_excerpts_match_the_app() {
        assert_eq!(initials("Ann Lee Smith"), "AS");
        assert_eq!(initials("ann"), "AN");
        assert_eq!(initials("  "), "?");
        assert_eq!(
            card_excerpt("Hello world", "Hello world. Then more"),
            "Then more"
        );
        assert_eq!(
            card_excerpt("Hello world", "Hello worldwide fame"),
            "Hello worldwide fame"
        );
        assert_eq!(card_excerpt("", "  a   b "), "a b");
    }

    #[test]
    fn a_card_is_the_apps_card_with_everything_escaped() {
        let post: PublicPost = serde_json::from_value(serde_json::json!({
            "_id": "64b7f0000000000000000001",
            "slug": "a post",
            "title": "<b>Bold</b> & more",
            "thumbnail": "/media/x.png",
            "excerpt": "An excerpt",
            "tags": ["a", "b", "c", "d", "e"],
            "likesCount": 1500,
            "commentsCount": 2,
            "readingTime": 0,
            "createdAt": "2024-05-10T11:00:00Z",
            "updatedAt": "2024-05-10T11:00:00Z",
            "author": {"_id": "64b7f00000000000000000aa", "name": "Ann \"Q\" Lee", "avatar": null},
            "category": {"_id": "64b7f00000000000000000cc", "name": "Tech", "slug": "tech"}
        }))
        .unwrap();
        let now = DateTime::parse_from_rfc3339("2024-05-10T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let html = post_card(&post, &NoSizes, now, false);
        assert!(html.contains("<h2 class=\"post-card__title\" id=\"post-64b7f0000000000000000001-title\"><a href=\"/post/a%20post\">&lt;b&gt;Bold&lt;/b&gt; &amp; more</a></h2>"));
        assert!(html.contains("class=\"post-card__thumb\" loading=\"lazy\""));
        assert!(html.contains("<a href=\"/category/tech\" class=\"category-pill\">Tech</a>"));
        assert_eq!(html.matches("class=\"tag\"").count(), 4);
        assert!(html.contains("data-initials=\"AL\""));
        assert!(html.contains("1 hour ago</time> · 1 min read"));
        assert!(html.contains("1.5K<span class=\"visually-hidden\"> likes"));
        let feed = post_feed("Posts", "None yet.", &[], &NoSizes, now);
        assert!(feed.contains("None yet."));
    }
}
