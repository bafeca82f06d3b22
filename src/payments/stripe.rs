//! The Stripe adapter: the REST API over reqwest, form-encoded as Stripe expects, with the secret
//! key as a bearer token and an `Idempotency-Key` on every call that creates something or moves
//! money. Charges are PaymentIntents (the reader's first payment may need their confirmation in
//! the browser; renewals are charged off-session with the saved payment method), refunds are
//! Refunds of a PaymentIntent, and payouts are Transfers to the author's connected account, whose
//! id is the `paymentId` of their bank details (a custom account holding the bank account as its
//! external account). Tested against the official stripe-mock.

use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;

use super::{
    Charge, ChargeRequest, ChargeStatus, CustomerRequest, Destination, DestinationRequest, Mode,
    PaymentProvider, Payout, PayoutRequest, ProviderError, ProviderResult, Refund, RefundRequest,
    RefundStatus,
};

/// Longest one Stripe call may take.
pub const TIMEOUT: Duration = Duration::from_secs(20);

type Params = Vec<(String, String)>;

pub struct StripeProvider {
    client: reqwest::Client,
    base: String,
    secret: String,
    mode: Mode,
}

fn p(key: &str, value: impl ToString) -> (String, String) {
    (key.to_string(), value.to_string())
}

fn metadata(params: &mut Params, entries: &[(String, String)]) {
    for (k, v) in entries {
        params.push((format!("metadata[{k}]"), v.clone()));
    }
}

/// The text of a Stripe error body.
fn error_message(body: &Value) -> String {
    body["error"]["message"]
        .as_str()
        .unwrap_or("The payment provider refused the request")
        .to_string()
}

fn id_of(body: &Value) -> ProviderResult<String> {
    body["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| ProviderError::Unavailable("answer without an id".into()))
}

/// Reads a PaymentIntent.
pub fn charge_of(body: &Value) -> ProviderResult<Charge> {
    let status = match body["status"].as_str().unwrap_or("") {
        "succeeded" => ChargeStatus::Succeeded,
        "canceled" => ChargeStatus::Failed {
            reason: body["cancellation_reason"]
                .as_str()
                .map(|r| format!("The payment was cancelled ({r})"))
                .unwrap_or_else(|| "The payment was cancelled".into()),
        },
        _ => match body["last_payment_error"]["message"].as_str() {
            // A failed attempt leaves the intent waiting for another payment method.
            Some(reason) if body["status"] == "requires_payment_method" => ChargeStatus::Failed {
                reason: reason.to_string(),
            },
            _ => ChargeStatus::Pending {
                client_secret: body["client_secret"].as_str().map(str::to_string),
            },
        },
    };
    let payment_method = match &body["payment_method"] {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("id").and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    Ok(Charge {
        id: id_of(body)?,
        status,
        payment_method,
    })
}

/// Reads a Refund.
pub fn refund_of(body: &Value) -> ProviderResult<Refund> {
    let status = match body["status"].as_str().unwrap_or("pending") {
        "succeeded" => RefundStatus::Succeeded,
        "failed" | "canceled" => RefundStatus::Failed,
        _ => RefundStatus::Pending,
    };
    Ok(Refund {
        id: id_of(body)?,
        status,
    })
}

impl StripeProvider {
    pub fn new(base: &str, secret: &str) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .user_agent(concat!("pressroom/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mode = if secret.starts_with("sk_live_") || secret.starts_with("rk_live_") {
            Mode::Live
        } else {
            Mode::Test
        };
        Ok(StripeProvider {
            client,
            base: base.trim_end_matches('/').to_string(),
            secret: secret.to_string(),
            mode,
        })
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> ProviderResult<Value> {
        let res = req
            .bearer_auth(&self.secret)
            .send()
            .await
            .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
        let status = res.status();
        let body: Value = res
            .json()
            .await
            .map_err(|e| ProviderError::Unavailable(format!("unreadable answer: {e}")))?;
        if status.is_success() {
            return Ok(body);
        }
        let kind = body["error"]["type"].as_str().unwrap_or("");
        Err(match status.as_u16() {
            402 => ProviderError::Declined(error_message(&body)),
            _ if kind == "card_error" => ProviderError::Declined(error_message(&body)),
            400 | 404 => ProviderError::Invalid(error_message(&body)),
            _ => ProviderError::Unavailable(format!("{status}: {}", error_message(&body))),
        })
    }

    /// `POST /v1/{path}` with form parameters and an idempotency key.
    async fn post(&self, path: &str, params: &Params, key: &str) -> ProviderResult<Value> {
        let req = self
            .client
            .post(format!("{}/v1/{path}", self.base))
            .header("Idempotency-Key", key)
            .form(params);
        self.send(req).await
    }

    async fn get(&self, path: &str) -> ProviderResult<Value> {
        self.send(self.client.get(format!("{}/v1/{path}", self.base)))
            .await
    }

    async fn delete(&self, path: &str) -> ProviderResult<Value> {
        self.send(self.client.delete(format!("{}/v1/{path}", self.base)))
            .await
    }

    /// A bank account token (`btok_`/`tok_`) for the destination's account.
    async fn bank_token(&self, req: &DestinationRequest) -> ProviderResult<String> {
        let params = vec![
            p("bank_account[country]", &req.country),
            p("bank_account[currency]", &req.currency),
            p("bank_account[account_number]", &req.account_number),
            p("bank_account[routing_number]", &req.bank_code),
            p("bank_account[account_holder_name]", &req.holder_name),
            p("bank_account[account_holder_type]", "individual"),
        ];
        let body = self
            .post("tokens", &params, &format!("{}:token", req.idempotency_key))
            .await?;
        id_of(&body)
    }
}

impl PaymentProvider for StripeProvider {
    fn name(&self) -> &'static str {
        "stripe"
    }

    fn mode(&self) -> Mode {
        self.mode
    }

    fn create_customer(&self, req: CustomerRequest) -> BoxFuture<'_, ProviderResult<String>> {
        Box::pin(async move {
            let mut params = vec![p("email", &req.email), p("name", &req.name)];
            metadata(&mut params, &[("userId".into(), req.user_id.clone())]);
            let body = self
                .post("customers", &params, &format!("customer:{}", req.user_id))
                .await?;
            id_of(&body)
        })
    }

    fn charge(&self, req: ChargeRequest) -> BoxFuture<'_, ProviderResult<Charge>> {
        Box::pin(async move {
            let mut params = vec![
                p("amount", req.amount),
                p("currency", &req.currency),
                p("customer", &req.customer),
                p("description", &req.description),
            ];
            match &req.payment_method {
                Some(method) => {
                    params.push(p("payment_method", method));
                    params.push(p("confirm", "true"));
                    if req.off_session {
                        params.push(p("off_session", "true"));
                    } else {
                        params.push(p("setup_future_usage", "off_session"));
                    }
                }
                None => {
                    params.push(p("automatic_payment_methods[enabled]", "true"));
                    params.push(p("setup_future_usage", "off_session"));
                }
            }
            metadata(&mut params, &req.metadata);
            match self
                .post("payment_intents", &params, &req.idempotency_key)
                .await
            {
                Ok(body) => charge_of(&body),
                // An off-session decline is an answer about the charge, not a failed call.
                Err(ProviderError::Declined(reason)) => Ok(Charge {
                    id: String::new(),
                    status: ChargeStatus::Failed { reason },
                    payment_method: req.payment_method.clone(),
                }),
                Err(e) => Err(e),
            }
        })
    }

    fn retrieve_charge(&self, id: String) -> BoxFuture<'_, ProviderResult<Charge>> {
        Box::pin(async move {
            let body = self.get(&format!("payment_intents/{id}")).await?;
            charge_of(&body)
        })
    }

    fn refund(&self, req: RefundRequest) -> BoxFuture<'_, ProviderResult<Refund>> {
        Box::pin(async move {
            let mut params = vec![
                p("payment_intent", &req.charge_id),
                p("amount", req.amount),
                p("reason", "requested_by_customer"),
            ];
            metadata(&mut params, &req.metadata);
            let body = self.post("refunds", &params, &req.idempotency_key).await?;
            refund_of(&body)
        })
    }

    fn create_destination(
        &self,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        Box::pin(async move {
            let token = self.bank_token(&req).await?;
            let mut params = vec![
                p("type", "custom"),
                p("country", &req.country),
                p("email", &req.email),
                p("business_type", "individual"),
                p("capabilities[transfers][requested]", "true"),
                p("external_account", &token),
            ];
            metadata(&mut params, &[("userId".into(), req.user_id.clone())]);
            let body = self.post("accounts", &params, &req.idempotency_key).await?;
            Ok(Destination { id: id_of(&body)? })
        })
    }

    fn update_destination(
        &self,
        id: String,
        req: DestinationRequest,
    ) -> BoxFuture<'_, ProviderResult<Destination>> {
        Box::pin(async move {
            let token = self.bank_token(&req).await?;
            let params = vec![
                p("external_account", &token),
                p("default_for_currency", "true"),
            ];
            self.post(
                &format!("accounts/{id}/external_accounts"),
                &params,
                &req.idempotency_key,
            )
            .await?;
            Ok(Destination { id })
        })
    }

    fn delete_destination(&self, id: String) -> BoxFuture<'_, ProviderResult<()>> {
        Box::pin(async move {
            match self.delete(&format!("accounts/{id}")).await {
                Ok(_) => Ok(()),
                // Already gone at the provider: nothing left to remove.
                Err(ProviderError::Invalid(_)) => Ok(()),
                Err(e) => Err(e),
            }
        })
    }

    fn payout(&self, req: PayoutRequest) -> BoxFuture<'_, ProviderResult<Payout>> {
        Box::pin(async move {
            let mut params = vec![
                p("amount", req.amount),
                p("currency", &req.currency),
                p("destination", &req.destination),
            ];
            metadata(&mut params, &req.metadata);
            let body = self
                .post("transfers", &params, &req.idempotency_key)
                .await?;
            Ok(Payout { id: id_of(&body)? })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn payment_intent_statuses_map_to_charge_outcomes() {
        let c = charge_of(&json!({"id": "pi_1", "status": "succeeded", "payment_method": "pm_1"}))
            .unwrap();
        assert_eq!(c.status, ChargeStatus::Succeeded);
        assert_eq!(c.payment_method.as_deref(), Some("pm_1"));
        let c =
            charge_of(&json!({"id": "pi_1", "status": "requires_action", "client_secret": "s"}))
                .unwrap();
        assert_eq!(
            c.status,
            ChargeStatus::Pending {
                client_secret: Some("s".into())
            }
        );
        let c = charge_of(&json!({"id": "pi_1", "status": "requires_payment_method",
            "last_payment_error": {"message": "Your card was declined."}}))
        .unwrap();
        assert_eq!(
            c.status,
            ChargeStatus::Failed {
                reason: "Your card was declined.".into()
            }
        );
        assert!(matches!(
            charge_of(&json!({"id": "pi_1", "status": "canceled"}))
                .unwrap()
                .status,
            ChargeStatus::Failed { .. }
        ));
        assert!(charge_of(&json!({"status": "succeeded"})).is_err());
    }

    #[test]
    fn refund_statuses_map() {
        assert_eq!(
            refund_of(&json!({"id": "re_1", "status": "succeeded"}))
                .unwrap()
                .status,
            RefundStatus::Succeeded
        );
        assert_eq!(
            refund_of(&json!({"id": "re_1", "status": "failed"}))
                .unwrap()
                .status,
            RefundStatus::Failed
        );
        assert_eq!(
            refund_of(&json!({"id": "re_1", "status": "pending"}))
                .unwrap()
                .status,
            RefundStatus::Pending
        );
    }

    #[test]
    fn the_key_decides_the_mode() {
        let live = StripeProvider::new("http://127.0.0.1:1", "sk_live_x").unwrap();
        assert_eq!(live.mode(), Mode::Live);
        let test = StripeProvider::new("http://127.0.0.1:1", "sk_test_x").unwrap();
        assert_eq!(test.mode(), Mode::Test);
    }

    /// Answers one HTTP request with `answer` and hands back the request's text.
    async fn capture_one(answer: &'static str) -> (String, tokio::task::JoinHandle<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let handle = tokio::spawn(async move {
            let (mut sock, _) = listener.accept().await.unwrap();
            let mut buf = vec![0u8; 16384];
            let mut text = String::new();
            loop {
                let n = sock.read(&mut buf).await.unwrap();
                text.push_str(&String::from_utf8_lossy(&buf[..n]));
                if let Some(head_end) = text.find("\r\n\r\n") {
                    let len = text[..head_end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().parse::<usize>().unwrap())
                        })
                        .unwrap_or(0);
                    if text.len() >= head_end + 4 + len {
                        break;
                    }
                }
            }
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            );
            sock.write_all(reply.as_bytes()).await.unwrap();
            text
        });
        (base, handle)
    }

    #[tokio::test]
    async fn a_charge_carries_its_idempotency_key_the_secret_and_form_fields() {
        let (base, seen) =
            capture_one(r#"{"id":"pi_9","status":"succeeded","payment_method":"pm_card_visa"}"#)
                .await;
        let stripe = StripeProvider::new(&base, "sk_test_abc").unwrap();
        let charge = stripe
            .charge(ChargeRequest {
                customer: "cus_1".into(),
                amount: 500,
                currency: "usd".into(),
                payment_method: Some("pm_card_visa".into()),
                off_session: true,
                description: "Gold".into(),
                metadata: vec![("subscriptionId".into(), "s1".into())],
                idempotency_key: "renew:s1:1".into(),
            })
            .await
            .unwrap();
        assert_eq!(charge.status, ChargeStatus::Succeeded);
        let request = seen.await.unwrap();
        let lower = request.to_ascii_lowercase();
        assert!(
            request.starts_with("POST /v1/payment_intents "),
            "{request}"
        );
        assert!(lower.contains("idempotency-key: renew:s1:1"), "{request}");
        assert!(
            lower.contains("authorization: bearer sk_test_abc"),
            "{request}"
        );
        assert!(request.contains("amount=500"), "{request}");
        assert!(request.contains("off_session=true"), "{request}");
        assert!(
            request.contains("metadata%5BsubscriptionId%5D=s1"),
            "{request}"
        );
    }

    #[tokio::test]
    async fn a_payout_and_a_refund_carry_their_keys() {
        let (base, seen) = capture_one(r#"{"id":"tr_1"}"#).await;
        let stripe = StripeProvider::new(&base, "sk_test_abc").unwrap();
        stripe
            .payout(PayoutRequest {
                destination: "acct_1".into(),
                amount: 900,
                currency: "usd".into(),
                metadata: vec![],
                idempotency_key: "payout:a:7".into(),
            })
            .await
            .unwrap();
        let request = seen.await.unwrap().to_ascii_lowercase();
        assert!(request.starts_with("post /v1/transfers "), "{request}");
        assert!(request.contains("idempotency-key: payout:a:7"), "{request}");

        let (base, seen) = capture_one(r#"{"id":"re_1","status":"succeeded"}"#).await;
        let stripe = StripeProvider::new(&base, "sk_test_abc").unwrap();
        stripe
            .refund(RefundRequest {
                charge_id: "pi_1".into(),
                amount: 500,
                metadata: vec![],
                idempotency_key: "refund:p1".into(),
            })
            .await
            .unwrap();
        let request = seen.await.unwrap().to_ascii_lowercase();
        assert!(request.starts_with("post /v1/refunds "), "{request}");
        assert!(request.contains("idempotency-key: refund:p1"), "{request}");
    }
}
