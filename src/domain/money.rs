//! Money values: amounts in integer minor units, currencies, billing intervals, the platform fee
//! and billing periods.

use chrono::{DateTime, Months, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::DomainError;

/// Smallest price a plan may have, in minor units (Stripe's minimum charge is 0.50 in the main
/// currencies).
pub const MIN_PRICE: i64 = 50;
/// Largest price a plan may have, in minor units (Stripe's maximum amount).
pub const MAX_PRICE: i64 = 99_999_999;

/// A whole amount of a currency's smallest unit, from JSON: a whole number (or its digits as
/// text). `field` names it in errors.
pub fn parse_amount(raw: &Value, field: &str, min: i64, max: i64) -> Result<i64, DomainError> {
    let message = || {
        DomainError::invalid(format!(
            "{field} must be a whole number of the currency's smallest unit (for example 999 for 9.99) from {min} to {max}"
        ))
    };
    let amount = match raw {
        Value::Number(n) => n.as_i64().ok_or_else(message)?,
        Value::String(s) => s.trim().parse::<i64>().map_err(|_| message())?,
        _ => return Err(message()),
    };
    if !(min..=max).contains(&amount) {
        return Err(message());
    }
    Ok(amount)
}

/// A currency code allowed by configuration, lowercased.
pub fn parse_currency(raw: &Value, allowed: &[String]) -> Result<String, DomainError> {
    let message =
        || DomainError::invalid(format!("currency must be one of {}", allowed.join(", ")));
    let code = raw.as_str().ok_or_else(message)?.trim().to_lowercase();
    if allowed.contains(&code) {
        Ok(code)
    } else {
        Err(message())
    }
}

/// How often a plan bills.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Interval {
    Month,
    Year,
}

impl Interval {
    pub fn parse(raw: &Value) -> Result<Self, DomainError> {
        match raw.as_str().map(|s| s.trim().to_lowercase()).as_deref() {
            Some("month") | Some("monthly") => Ok(Interval::Month),
            Some("year") | Some("yearly") | Some("annual") => Ok(Interval::Year),
            _ => Err(DomainError::invalid("interval must be month or year")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Interval::Month => "month",
            Interval::Year => "year",
        }
    }

    /// The end of a period that starts at `start` (the same day of the next month or year; the
    /// 31st becomes the month's last day).
    pub fn period_end(self, start: DateTime<Utc>) -> DateTime<Utc> {
        let months = match self {
            Interval::Month => 1,
            Interval::Year => 12,
        };
        start
            .checked_add_months(Months::new(months))
            .unwrap_or(start + chrono::Duration::days(31 * i64::from(months)))
    }
}

/// The platform's fee on `amount` at `percent`, rounded to the nearest minor unit (half up).
pub fn platform_fee(amount: i64, percent: f64) -> i64 {
    let basis_points = (percent * 100.0).round() as i128;
    let fee = (i128::from(amount) * basis_points + 5_000) / 10_000;
    i64::try_from(fee).unwrap_or(amount).clamp(0, amount)
}

/// The smallest charge the provider takes in `currency`, in minor units (Stripe's minimums:
/// 0.50 in the dollar and euro currencies, 0.30 GBP, 0.50 of most others).
pub fn minimum_charge(currency: &str) -> i64 {
    match currency {
        "gbp" => 30,
        "jpy" => 50,
        "hkd" => 400,
        "mxn" => 1000,
        "sek" | "nok" | "dkk" => 300,
        "czk" => 1500,
        "huf" => 17_500,
        "pln" => 200,
        "ron" | "myr" | "brl" => 200,
        "thb" => 1000,
        _ => 50,
    }
}

/// Decimal places of a currency's major unit (zero-decimal currencies such as the yen have
/// none).
pub fn decimals(currency: &str) -> u32 {
    match currency {
        "jpy" | "krw" | "vnd" | "clp" | "pyg" | "isk" | "ugx" | "xaf" | "xof" => 0,
        _ => 2,
    }
}

/// An amount as people read it: "$5", "$5.50", "€12", "£0.30", "₹100", "12.34 CHF".
pub fn format_amount(amount: i64, currency: &str) -> String {
    let places = decimals(currency);
    let unit = 10_i64.pow(places);
    let sign = if amount < 0 { "-" } else { "" };
    let abs = amount.unsigned_abs();
    let whole = abs / unit as u64;
    let cents = abs % unit as u64;
    let number = if cents == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{cents:0width$}", width = places as usize)
    };
    let symbol = match currency {
        "usd" => Some("$"),
        "eur" => Some("€"),
        "gbp" => Some("£"),
        "inr" => Some("₹"),
        "jpy" => Some("¥"),
        _ => None,
    };
    match symbol {
        Some(s) => format!("{sign}{s}{number}"),
        None => format!("{sign}{number} {}", currency.to_uppercase()),
    }
}

/// Where a refund stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefundStatus {
    Succeeded,
    Pending,
    Failed,
}

/// Whether a plan takes new subscribers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlanStatus {
    Active,
    Inactive,
}

impl PlanStatus {
    pub fn parse(raw: &serde_json::Value) -> Result<Self, DomainError> {
        match raw.as_str().map(|s| s.trim().to_lowercase()).as_deref() {
            Some("active") => Ok(PlanStatus::Active),
            Some("inactive") => Ok(PlanStatus::Inactive),
            _ => Err(DomainError::invalid("status must be active or inactive")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::Active => "active",
            PlanStatus::Inactive => "inactive",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    #[test]
    fn amounts_read_as_people_write_them() {
        assert_eq!(format_amount(500, "usd"), "$5");
        assert_eq!(format_amount(550, "usd"), "$5.50");
        assert_eq!(format_amount(5, "eur"), "€0.05");
        assert_eq!(format_amount(30, "gbp"), "£0.30");
        assert_eq!(format_amount(500, "jpy"), "¥500");
        assert_eq!(format_amount(1234, "chf"), "12.34 CHF");
        assert_eq!(minimum_charge("usd"), 50);
        assert_eq!(minimum_charge("gbp"), 30);
    }

    #[test]
    fn the_default_fee_is_ten_percent_rounded_half_up() {
        let cases = [
            (1000, 10.0, 100),
            (999, 10.0, 100),
            (994, 10.0, 99),
            (50, 10.0, 5),
            (1000, 0.0, 0),
            (1000, 100.0, 1000),
            (1234, 2.5, 31),
        ];
        for (amount, percent, fee) in cases {
            assert_eq!(platform_fee(amount, percent), fee, "{amount} at {percent}%");
        }
    }

    #[test]
    fn a_price_is_a_whole_number_of_minor_units() {
        assert_eq!(
            parse_amount(&json!(999), "price", 50, 100_000).unwrap(),
            999
        );
        assert_eq!(
            parse_amount(&json!("999"), "price", 50, 100_000).unwrap(),
            999
        );
        for bad in [
            json!(9.99),
            json!(-5),
            json!(10),
            json!("ten"),
            json!(null),
            json!({"$gt": 1}),
            json!(true),
        ] {
            assert!(parse_amount(&bad, "price", 50, 100_000).is_err(), "{bad}");
        }
    }

    #[test]
    fn currencies_come_from_the_configured_list() {
        let allowed = vec!["usd".to_string(), "inr".to_string()];
        assert_eq!(parse_currency(&json!("USD"), &allowed).unwrap(), "usd");
        assert!(parse_currency(&json!("xyz"), &allowed).is_err());
        assert!(parse_currency(&json!(5), &allowed).is_err());
    }

    #[test]
    fn a_monthly_period_ends_the_same_day_next_month_or_the_months_last_day() {
        let jan31 = Utc.with_ymd_and_hms(2026, 1, 31, 12, 0, 0).unwrap();
        assert_eq!(
            Interval::Month.period_end(jan31),
            Utc.with_ymd_and_hms(2026, 2, 28, 12, 0, 0).unwrap()
        );
        assert_eq!(
            Interval::Year.period_end(jan31),
            Utc.with_ymd_and_hms(2027, 1, 31, 12, 0, 0).unwrap()
        );
        assert_eq!(Interval::parse(&json!("Monthly")).unwrap(), Interval::Month);
        assert!(Interval::parse(&json!("week")).is_err());
    }
}
