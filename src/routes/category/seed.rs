//! `POST /api/category/seed` (administrators) → {message}: adds the default categories that are
//! missing. Running it again adds nothing.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::persistence::categories::{self, NewCategory};
use crate::state::AppState;

/// The default set: (name, slug, description).
pub const DEFAULT_CATEGORIES: [(&str, &str, &str); 16] = [
    (
        "Technology",
        "technology",
        "Software, hardware, gadgets and the people who build them.",
    ),
    (
        "Programming",
        "programming",
        "Languages, tools and the craft of writing code.",
    ),
    (
        "Science",
        "science",
        "Discoveries, research and how the world works.",
    ),
    (
        "Health",
        "health",
        "Fitness, medicine, nutrition and well-being.",
    ),
    (
        "Business",
        "business",
        "Companies, startups, markets and work.",
    ),
    (
        "Finance",
        "finance",
        "Money, investing and personal finance.",
    ),
    (
        "Politics",
        "politics",
        "Government, policy and public life.",
    ),
    ("Education", "education", "Teaching, learning and schools."),
    ("Sports", "sports", "Games, athletes and competitions."),
    (
        "Entertainment",
        "entertainment",
        "Film, television, celebrities and pop culture.",
    ),
    (
        "Music",
        "music",
        "Artists, albums, instruments and concerts.",
    ),
    ("Travel", "travel", "Places, journeys and travel tips."),
    ("Food", "food", "Recipes, restaurants and cooking."),
    (
        "Lifestyle",
        "lifestyle",
        "Home, fashion, relationships and everyday life.",
    ),
    (
        "Art & Design",
        "art-design",
        "Visual art, design, illustration and photography.",
    ),
    (
        "Environment",
        "environment",
        "Climate, nature and sustainability.",
    ),
];

/// `{message, added}`: how many default categories were added.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct SeedAnswer {
    message: String,
    added: u32,
}

#[tracing::instrument(skip_all)]
pub async fn seed(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let mut added = 0;
    for (name, slug, description) in DEFAULT_CATEGORIES {
        let new = NewCategory {
            name: name.to_string(),
            slug: slug.to_string(),
            description: description.to_string(),
            created_by: None,
        };
        if categories::create_if_missing(&state.db, new).await? {
            added += 1;
        }
    }
    let message = if added == 0 {
        "Default categories are already in place".to_string()
    } else {
        format!("Seeded {added} default categories")
    };
    let details = json!({ "added": added });
    audit::record(
        &state,
        &admin.0,
        Action::CategorySeed,
        Target::site(),
        details,
    )
    .await;
    Ok(HttpResponse::Ok().json(SeedAnswer { message, added }))
}
