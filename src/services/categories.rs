//! Categories (`/api/category/*`): the list, each user's selection, creating a category, changing
//! or deleting one (its creator or an administrator), the default set, and slug availability.

use mongodb::bson::oid::ObjectId;
use serde::Serialize;
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::domain::slug::{slugify, Slug, MAX_SLUG_LEN};
use crate::error::{ApiError, ApiResult};
use crate::persistence::categories::{self, Category, CategoryChanges, NewCategory};
use crate::persistence::{posts, Db, DbError};
use crate::post_view::iso;
use crate::services::posts::MSG_CATEGORY_NOT_FOUND;
use crate::state::AppState;

pub const MAX_CATEGORY_NAME_LEN: usize = 50;
pub const MAX_DESCRIPTION_LEN: usize = 500;
pub const MAX_SELECTED: usize = 100;
pub const MSG_NOT_CATEGORY_OWNER: &str =
    "Only the creator of this category or an administrator can change it";

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

/// A category as sent: its name, slug and description, not yet checked.
pub struct CategoryInput {
    pub name: String,
    pub slug: Option<String>,
    pub description: Option<String>,
}

impl CategoryInput {
    /// The category to create, checked, with `creator` as its creator.
    fn checked(&self, creator: Option<ObjectId>) -> ApiResult<NewCategory> {
        let name = parse_name(&self.name)?;
        let slug = slug_or_from_name(self.slug.as_deref(), &name)?;
        let description = parse_description(self.description.as_deref())?;
        Ok(NewCategory {
            name,
            slug: slug.into_string(),
            description,
            created_by: creator,
        })
    }
}

/// Every category, by name.
pub async fn all(state: &AppState) -> ApiResult<CategoriesAnswer> {
    let all = categories::list_all(&state.db).await?;
    Ok(CategoriesAnswer::of(&all))
}

/// The user's selected categories in selection order (deleted ones are skipped).
async fn selected(db: &Db, user: ObjectId) -> ApiResult<Vec<Category>> {
    let ids = categories::selected_ids(db, user).await?;
    let found = categories::find_many(db, &ids).await?;
    Ok(ids
        .iter()
        .filter_map(|id| found.iter().find(|c| c.id == *id).cloned())
        .collect())
}

/// The user's selection, in the order chosen.
pub async fn selection_of(state: &AppState, user: ObjectId) -> ApiResult<CategoriesAnswer> {
    Ok(CategoriesAnswer::of(&selected(&state.db, user).await?))
}

/// Replaces `me`'s selection with the categories `ids` (each must exist) and `new` ones, created
/// with `me` as their creator (a slug in use selects the category that has it); answers the
/// selection.
pub async fn assign(
    state: &AppState,
    me: &AuthUser,
    mut ids: Vec<ObjectId>,
    new: &[CategoryInput],
) -> ApiResult<CategoriesAnswer> {
    let found = categories::find_many(&state.db, &ids).await?;
    if let Some(missing) = ids.iter().find(|id| !found.iter().any(|c| c.id == **id)) {
        return Err(ApiError::bad_request(format!(
            "Category {} does not exist",
            missing.to_hex()
        )));
    }
    // Validate every new category before creating any.
    let new = new
        .iter()
        .map(|c| c.checked(Some(me.user.id)))
        .collect::<ApiResult<Vec<_>>>()?;
    for n in new {
        let slug = n.slug.clone();
        let id = match categories::create(&state.db, n).await {
            Ok(c) => c.id,
            // A category with that slug exists already: select it instead.
            Err(DbError::Duplicate(what)) => categories::find_by_slug(&state.db, &slug)
                .await?
                .map(|c| c.id)
                .ok_or_else(|| ApiError::conflict(format!("{what} already exists")))?,
            Err(e) => return Err(e.into()),
        };
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.len() > MAX_SELECTED {
        return Err(ApiError::bad_request(format!(
            "At most {MAX_SELECTED} categories can be selected"
        )));
    }
    categories::replace_selection(&state.db, me.user.id, &ids).await?;
    selection_of(state, me.user.id).await
}

/// Creates a category with `me` as its creator (a slug in use is a 409).
pub async fn create(
    state: &AppState,
    me: &AuthUser,
    input: &CategoryInput,
) -> ApiResult<CategoryAnswer> {
    let category = categories::create(&state.db, input.checked(Some(me.user.id))?).await?;
    Ok(CategoryAnswer {
        category: CategoryView::from(&category),
    })
}

/// Changes the fields sent of category `id`, for its creator or an administrator.
pub async fn update(
    state: &AppState,
    me: &AuthUser,
    id: ObjectId,
    name: Option<&str>,
    slug: Option<&str>,
    description: Option<&str>,
) -> ApiResult<CategoryAnswer> {
    let changes = CategoryChanges {
        name: name.map(parse_name).transpose()?,
        slug: slug.map(Slug::parse).transpose()?.map(Slug::into_string),
        description: description
            .map(|d| parse_description(Some(d)))
            .transpose()?,
    };
    let existing = categories::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    if !may_manage(&existing, me) {
        return Err(ApiError::forbidden(MSG_NOT_CATEGORY_OWNER));
    }
    let category = categories::update(&state.db, id, changes)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    Ok(CategoryAnswer {
        category: CategoryView::from(&category),
    })
}

/// Deletes category `id`, for its creator or an administrator: it leaves every selection and
/// the posts filed under it keep no category.
pub async fn delete(state: &AppState, me: &AuthUser, id: ObjectId) -> ApiResult<()> {
    let existing = categories::find_by_id(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(MSG_CATEGORY_NOT_FOUND))?;
    if !may_manage(&existing, me) {
        return Err(ApiError::forbidden(MSG_NOT_CATEGORY_OWNER));
    }
    if !categories::delete(&state.db, id).await? {
        return Err(ApiError::not_found(MSG_CATEGORY_NOT_FOUND));
    }
    posts::clear_category(&state.db, id).await?;
    Ok(())
}

/// Adds the categories of [`DEFAULT_CATEGORIES`] that are missing, recorded as `admin`'s; returns
/// how many were added.
pub async fn seed_defaults(state: &AppState, admin: &AuthUser) -> ApiResult<u32> {
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
    let details = json!({ "added": added });
    audit::record(state, admin, Action::CategorySeed, Target::site(), details).await;
    Ok(added)
}

/// Whether a category (or with `of_posts`, a post) has the slug.
pub async fn slug_taken(state: &AppState, slug: &Slug, of_posts: bool) -> ApiResult<bool> {
    Ok(if of_posts {
        crate::services::posts::find_by_slug(state, slug.as_str())
            .await?
            .is_some()
    } else {
        categories::find_by_slug(&state.db, slug.as_str())
            .await?
            .is_some()
    })
}
