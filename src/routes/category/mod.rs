//! `/api/category/*`: the category list, each user's selection, creation and moderation of
//! categories, the default set, and slug availability.

pub mod all_category;
pub mod assign;
pub mod check_slug;
pub mod create;
pub mod delete;
pub mod seed;
pub mod update;
pub mod user_selected;

use serde::Serialize;

use crate::auth::AuthUser;
use crate::domain::slug::{slugify, Slug, MAX_SLUG_LEN};
use crate::error::ApiError;
use crate::persistence::categories::Category;
use crate::post_view::iso;

pub const MAX_CATEGORY_NAME_LEN: usize = 50;
pub const MAX_DESCRIPTION_LEN: usize = 500;
use crate::services::posts::MSG_CATEGORY_NOT_FOUND;
pub const MSG_NOT_CATEGORY_OWNER: &str =
    "Only the creator of this category or an administrator can change it";

/// A category as clients see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryView {
    #[serde(rename = "_id")]
    pub id: String,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub created_by: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl From<&Category> for CategoryView {
    fn from(c: &Category) -> Self {
        CategoryView {
            id: c.id.to_hex(),
            name: c.name.clone(),
            slug: c.slug.clone(),
            description: c.description.clone(),
            created_by: c.created_by.map(|id| id.to_hex()),
            created_at: iso(c.created_at),
            updated_at: iso(c.updated_at),
        }
    }
}

/// `{category}`: the answer of a creation or a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CategoryAnswer {
    pub category: CategoryView,
}

/// `{categories}`: the answer of every list of categories.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CategoriesAnswer {
    pub categories: Vec<CategoryView>,
}

impl CategoriesAnswer {
    pub fn of(categories: &[Category]) -> Self {
        CategoriesAnswer {
            categories: views(categories),
        }
    }
}

pub fn views(categories: &[Category]) -> Vec<CategoryView> {
    categories.iter().map(CategoryView::from).collect()
}

/// A category name: trimmed, inner whitespace collapsed, 1 to 50 characters.
pub fn parse_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(ApiError::bad_request("Category name is required"));
    }
    if name.chars().count() > MAX_CATEGORY_NAME_LEN {
        return Err(ApiError::bad_request(format!(
            "Category name must be at most {MAX_CATEGORY_NAME_LEN} characters"
        )));
    }
    if name.chars().any(char::is_control) || name.contains(['<', '>']) {
        return Err(ApiError::bad_request(
            "Category name contains invalid characters",
        ));
    }
    Ok(name)
}

/// A description: trimmed, at most 500 characters.
pub fn parse_description(raw: Option<&str>) -> Result<String, ApiError> {
    let text = raw.unwrap_or("").trim().to_string();
    if text.chars().count() > MAX_DESCRIPTION_LEN {
        return Err(ApiError::bad_request(format!(
            "Description must be at most {MAX_DESCRIPTION_LEN} characters"
        )));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err(ApiError::bad_request(
            "Description contains invalid characters",
        ));
    }
    Ok(text)
}

/// The slug given, or one made from the name when none is given.
pub fn slug_or_from_name(slug: Option<&str>, name: &str) -> Result<Slug, ApiError> {
    match slug.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Ok(Slug::parse(s)?),
        None => Ok(Slug::parse(&slugify(name, MAX_SLUG_LEN))?),
    }
}

/// Whether the user may change or delete the category: its creator or an administrator.
pub fn may_manage(category: &Category, me: &AuthUser) -> bool {
    me.is_admin() || category.created_by == Some(me.user.id)
}
