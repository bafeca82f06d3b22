//! The administrators' workbook (`GET /api/admin/download-csv`): an Excel workbook with the
//! sheets Users, Posts and Engagement (likes, bookmarks, comments, shares and poll votes, one row
//! each). Written with `rust_xlsxwriter` in its constant-memory mode (rows go to a temporary file
//! as they are written): documents are read through a cursor a page at a time
//! (`persistence::site_export`), and each page's rows are written, with the names and titles they
//! need looked up for that page, before the next page is read. A sheet that would pass Excel's
//! row limit goes on in "Users 2", "Posts 2"... Emails and other personal fields appear only in
//! this export.

use std::collections::HashMap;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{Bson, Document};
use rust_xlsxwriter::{Format, Workbook};
use serde_json::json;

use crate::audit::{self, Action, Target};
use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::persistence::site_export::{PagedReader, ENGAGEMENT};
use crate::persistence::{posts, user_directory, users, Db};
use crate::post_view::DELETED_AUTHOR;
use crate::state::AppState;

/// Rows an Excel sheet can hold, its header included.
pub const MAX_SHEET_ROWS: u32 = 1_048_576;

pub const USER_COLUMNS: [&str; 9] = [
    "ID",
    "Name",
    "Email",
    "Role",
    "Blocked",
    "Verified",
    "Region",
    "Published posts",
    "Joined",
];
pub const POST_COLUMNS: [&str; 16] = [
    "ID",
    "Title",
    "Slug",
    "Author ID",
    "Author",
    "Status",
    "Visibility",
    "Blocked",
    "Tags",
    "Views",
    "Likes",
    "Bookmarks",
    "Comments",
    "Shares",
    "Created",
    "Updated",
];
pub const ENGAGEMENT_COLUMNS: [&str; 7] = [
    "Type",
    "Post ID",
    "Post",
    "User ID",
    "User",
    "User email",
    "At",
];

/// One cell.
enum Cell {
    Text(String),
    Number(f64),
    Bool(bool),
    Empty,
}

fn text(d: &Document, key: &str) -> Cell {
    match d.get(key) {
        Some(Bson::String(s)) => Cell::Text(s.clone()),
        Some(Bson::ObjectId(id)) => Cell::Text(id.to_hex()),
        Some(Bson::DateTime(t)) => Cell::Text(t.try_to_rfc3339_string().unwrap_or_default()),
        Some(Bson::Array(items)) => Cell::Text(
            items
                .iter()
                .filter_map(Bson::as_str)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => Cell::Empty,
    }
}

fn number(d: &Document, key: &str) -> Cell {
    match d.get(key) {
        Some(Bson::Int32(n)) => Cell::Number(f64::from(*n)),
        Some(Bson::Int64(n)) => Cell::Number(*n as f64),
        Some(Bson::Double(n)) => Cell::Number(*n),
        _ => Cell::Number(0.0),
    }
}

fn flag(d: &Document, key: &str) -> Cell {
    Cell::Bool(d.get_bool(key).unwrap_or(false))
}

fn xlsx(e: rust_xlsxwriter::XlsxError) -> ApiError {
    ApiError::internal(anyhow::anyhow!("writing the workbook: {e}"))
}

/// Writes rows into a sheet, going on in a new sheet of the same name and a number when one is
/// full.
struct SheetWriter<'a> {
    workbook: &'a mut Workbook,
    name: &'static str,
    columns: &'static [&'static str],
    header: Format,
    max_rows: u32,
    sheet: usize,
    part: u32,
    row: u32,
    rows: u64,
}

impl<'a> SheetWriter<'a> {
    fn new(
        workbook: &'a mut Workbook,
        name: &'static str,
        columns: &'static [&'static str],
    ) -> ApiResult<Self> {
        Self::with_limit(workbook, name, columns, MAX_SHEET_ROWS)
    }

    fn with_limit(
        workbook: &'a mut Workbook,
        name: &'static str,
        columns: &'static [&'static str],
        max_rows: u32,
    ) -> ApiResult<Self> {
        let mut writer = SheetWriter {
            workbook,
            name,
            columns,
            header: Format::new().set_bold(),
            max_rows,
            sheet: 0,
            part: 0,
            row: 0,
            rows: 0,
        };
        writer.start_sheet()?;
        Ok(writer)
    }

    fn start_sheet(&mut self) -> ApiResult<()> {
        self.part += 1;
        let title = if self.part == 1 {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.part)
        };
        let sheet = self.workbook.add_worksheet_with_constant_memory();
        sheet.set_name(&title).map_err(xlsx)?;
        for (col, name) in self.columns.iter().enumerate() {
            sheet
                .write_string_with_format(0, col as u16, *name, &self.header)
                .map_err(xlsx)?;
        }
        self.sheet = self.workbook.worksheets().len() - 1;
        self.row = 1;
        Ok(())
    }

    fn write(&mut self, cells: Vec<Cell>) -> ApiResult<()> {
        if self.row >= self.max_rows {
            self.start_sheet()?;
        }
        let row = self.row;
        let sheet = self
            .workbook
            .worksheet_from_index(self.sheet)
            .map_err(xlsx)?;
        for (col, cell) in cells.into_iter().enumerate() {
            let col = col as u16;
            match cell {
                Cell::Text(s) => sheet.write_string(row, col, s).map(|_| ()),
                Cell::Number(n) => sheet.write_number(row, col, n).map(|_| ()),
                Cell::Bool(b) => sheet.write_boolean(row, col, b).map(|_| ()),
                Cell::Empty => Ok(()),
            }
            .map_err(xlsx)?;
        }
        self.row += 1;
        self.rows += 1;
        Ok(())
    }
}

fn ids(page: &[Document], field: &str) -> Vec<ObjectId> {
    let mut ids: Vec<ObjectId> = page
        .iter()
        .filter_map(|d| d.get_object_id(field).ok())
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The workbook's bytes, and the rows of each sheet (Users, Posts, Engagement).
pub async fn build_workbook(db: &Db) -> ApiResult<(Vec<u8>, [u64; 3])> {
    let mut workbook = Workbook::new();
    let mut rows = [0; 3];

    let mut sheet = SheetWriter::new(&mut workbook, "Users", &USER_COLUMNS)?;
    let mut reader = PagedReader::users(db).await?;
    while let Some(page) = reader.next_page().await? {
        for u in &page {
            sheet.write(vec![
                text(u, "_id"),
                text(u, "name"),
                text(u, "email"),
                text(u, "role"),
                flag(u, "blocked"),
                flag(u, "isAccountVerified"),
                text(u, "region"),
                number(u, "totalPosts"),
                text(u, "createdAt"),
            ])?;
        }
    }
    rows[0] = sheet.rows;

    let mut sheet = SheetWriter::new(&mut workbook, "Posts", &POST_COLUMNS)?;
    let mut reader = PagedReader::posts(db).await?;
    while let Some(page) = reader.next_page().await? {
        let authors = user_directory::authors(db, &ids(&page, "author")).await?;
        for p in &page {
            let name = p
                .get_object_id("author")
                .ok()
                .and_then(|a| authors.get(&a))
                .map_or(DELETED_AUTHOR.to_string(), |a| a.name.clone());
            sheet.write(vec![
                text(p, "_id"),
                text(p, "title"),
                text(p, "slug"),
                text(p, "author"),
                Cell::Text(name),
                text(p, "status"),
                text(p, "visibility"),
                flag(p, "blocked"),
                text(p, "tags"),
                number(p, "views"),
                number(p, "likesCount"),
                number(p, "bookmarksCount"),
                number(p, "commentsCount"),
                number(p, "shareCount"),
                text(p, "createdAt"),
                text(p, "updatedAt"),
            ])?;
        }
    }
    rows[1] = sheet.rows;

    let mut sheet = SheetWriter::new(&mut workbook, "Engagement", &ENGAGEMENT_COLUMNS)?;
    for (kind, collection, user_field, post_field) in ENGAGEMENT {
        let mut reader = PagedReader::engagement(db, collection, user_field, post_field).await?;
        while let Some(page) = reader.next_page().await? {
            let people: HashMap<ObjectId, users::User> =
                users::find_many(db, &ids(&page, user_field))
                    .await?
                    .into_iter()
                    .map(|u| (u.id, u))
                    .collect();
            let titles: HashMap<ObjectId, String> =
                posts::find_many_without_blocks(db, &ids(&page, post_field))
                    .await?
                    .into_iter()
                    .map(|p| (p.id, p.title))
                    .collect();
            for r in &page {
                let user = r
                    .get_object_id(user_field)
                    .ok()
                    .and_then(|u| people.get(&u));
                let title = r
                    .get_object_id(post_field)
                    .ok()
                    .and_then(|p| titles.get(&p).cloned());
                sheet.write(vec![
                    Cell::Text(kind.to_string()),
                    text(r, post_field),
                    title.map_or(Cell::Empty, Cell::Text),
                    text(r, user_field),
                    user.map_or(Cell::Empty, |u| Cell::Text(u.name.clone())),
                    user.map_or(Cell::Empty, |u| Cell::Text(u.email.clone())),
                    text(r, "createdAt"),
                ])?;
            }
        }
    }
    rows[2] = sheet.rows;
    let bytes = workbook.save_to_buffer().map_err(xlsx)?;
    Ok((bytes, rows))
}

/// The workbook's bytes, with the export recorded in the audit log as `admin`'s.
pub async fn export(state: &AppState, admin: &AuthUser) -> ApiResult<Vec<u8>> {
    let (bytes, rows) = build_workbook(&state.db).await?;
    let details =
        json!({ "users": rows[0], "posts": rows[1], "engagement": rows[2], "bytes": bytes.len() });
    audit::record(state, admin, Action::DataExport, Target::site(), details).await;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use calamine::{open_workbook_from_rs, Reader, Xlsx};

    use super::*;

    #[test]
    fn a_full_sheet_goes_on_in_a_numbered_one_with_its_header() {
        let mut workbook = Workbook::new();
        let mut sheet =
            SheetWriter::with_limit(&mut workbook, "Posts", &["ID", "Title"], 3).unwrap();
        for i in 0..5 {
            sheet
                .write(vec![
                    Cell::Number(f64::from(i)),
                    Cell::Text(format!("post {i}")),
                ])
                .unwrap();
        }
        assert_eq!(sheet.rows, 5);
        let bytes = workbook.save_to_buffer().unwrap();
        let mut read: Xlsx<_> = open_workbook_from_rs(Cursor::new(bytes)).unwrap();
        assert_eq!(read.sheet_names(), ["Posts", "Posts 2", "Posts 3"]);
        let heights: Vec<usize> = ["Posts", "Posts 2", "Posts 3"]
            .iter()
            .map(|n| read.worksheet_range(n).unwrap().height())
            .collect();
        assert_eq!(heights, [3, 3, 2], "each sheet starts with its header");
    }
}
