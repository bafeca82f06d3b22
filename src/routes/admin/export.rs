//! `GET /api/admin/download-csv` (administrators) → an Excel workbook, `pressroom-export.xlsx`,
//! with the sheets Users, Posts and Engagement (likes, bookmarks, comments, shares and poll
//! votes, one row each), written by `services::workbook` a page of documents at a time. A sheet
//! that would pass Excel's row limit goes on in "Users 2", "Posts 2"... Emails and other
//! personal fields appear only in this export.

use actix_web::http::header::{self, ContentDisposition, DispositionParam, DispositionType};
use actix_web::{web, HttpResponse};

use crate::auth::AdminUser;
use crate::error::ApiResult;
use crate::services::workbook;
use crate::state::AppState;

pub const FILE_NAME: &str = "pressroom-export.xlsx";
pub const CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

#[tracing::instrument(skip(state, admin), fields(admin = %admin.0.id_hex()))]
pub async fn download(state: web::Data<AppState>, admin: AdminUser) -> ApiResult<HttpResponse> {
    let bytes = workbook::export(&state, &admin.0).await?;
    Ok(HttpResponse::Ok()
        .content_type(CONTENT_TYPE)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(FILE_NAME.to_string())],
        })
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(bytes))
}
