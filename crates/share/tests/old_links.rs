//! Links made by version 1, committed as text: they must keep opening, to the same
//! scenario, in every later version (and with any later deflate crate).

use delaylab_engine::scenario::load_str;
use delaylab_share::{decode_fragment, ViewOptions};

/// The head-of-line preset as it was when the link was made (compact, as `save` wrote it).
const HEAD_OF_LINE_V1: &str = r#"{"version":1,"name":"Head-of-line blocking","description":"Two orders with different per-message TTLs (expiration) share one DLX wait queue, order.delay.queue, which has no consumer and dead-letters through order.dlx.exchange (routing key order.timeout) into order.dlx.queue. A waits 30 min, B, published a minute later, only 5 min.","watch":"B (5 min) is delivered at 30:00, together with A, not at 6:00: only the head of a queue expires. B's late_ms is 1440000 (24 min). While it waits, the already expired B still counts in order.delay.queue's ready messages. B's x-death entry keeps original-expiration \"300000\" and the delivered copy has no expiration property any more.","seed":7,"until":"40m","topology":{"exchanges":[{"name":"order.delay.exchange","type":"direct"},{"name":"order.dlx.exchange","type":"direct"}],"queues":[{"name":"order.delay.queue","arguments":{"x-dead-letter-exchange":"order.dlx.exchange","x-dead-letter-routing-key":"order.timeout"}},{"name":"order.dlx.queue"}],"bindings":[{"source":"order.delay.exchange","destination":"order.delay.queue","destination_type":"queue","routing_key":"order.create"},{"source":"order.dlx.exchange","destination":"order.dlx.queue","destination_type":"queue","routing_key":"order.timeout"}]},"consumers":[{"name":"closer","queue":"order.dlx.queue","ack":"manual","prefetch":10,"handle":"100ms","outcome":"ack"}],"actions":[{"at":"0s","publish":{"exchange":"order.delay.exchange","routing_key":"order.create","body":"A","properties":{"expiration":"1800000","delivery_mode":2}}},{"at":"1m","publish":{"exchange":"order.delay.exchange","routing_key":"order.create","body":"B","properties":{"expiration":"300000"}}}]}"#;

/// That scenario at 1000x, in Chinese, read-only: made with preset dictionary 8.
const HEAD_OF_LINE_LINK: &str =
    "https://delaylab.example/#v1.CNaDVazt1zENAAAIAzDhBO8oAL5dVdG0tqIekfxvSDKSkYxkJCNZSrIe";

/// A small custom scenario (no preset behind it: the common dictionary only).
const TINY_V1: &str = r#"{"version":1,"name":"<b>tiny</b>","seed":3,"topology":{"exchanges":[{"name":"x","type":"x-delayed-message","arguments":{"x-delayed-type":"direct"}}],"queues":[{"name":"q"}],"bindings":[{"source":"x","destination":"q","destination_type":"queue","routing_key":"k"}]},"consumers":[{"name":"c","queue":"q","ack":"auto","prefetch":0,"handle":"0s","outcome":"ack"}],"actions":[{"at":"5s","publish":{"exchange":"x","routing_key":"k","body":"hello","properties":{"headers":{"x-delay":2000}}}}]}"#;

const TINY_FRAGMENT: &str = "v1.Bhosvrm1100KgCAQhuEjRYU78S4JQZAQs5uI7l5uPsSfYVx4A4XvgXkfdGM7FGeTdeIW8y8vPEXHWe_-X9128g4iV4VBHseNBF5cSKIeOaekJYFCgCFfbUoSpk2CK2_Emo49hKtYVG0_C9bzfg";

#[test]
fn a_v1_preset_link_keeps_opening() {
    let shared = decode_fragment(HEAD_OF_LINE_LINK).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shared.scenario, load_str(HEAD_OF_LINE_V1).unwrap());
    assert_eq!(
        shared.view,
        ViewOptions {
            speed: Some(1000.0),
            lang: Some("zh".into()),
            read_only: true,
            ..Default::default()
        }
    );
    // And it still teaches the same thing: B delivered at 30:00 with A.
    let result = delaylab_engine::report::run(&shared.scenario);
    let times: Vec<(String, u64)> = result["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["body"].as_str().unwrap().to_string(),
                d["delivered_at_ms"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        times,
        [("A".to_string(), 1_800_000), ("B".to_string(), 1_800_000)]
    );
}

#[test]
fn a_v1_custom_link_keeps_opening() {
    for text in [
        TINY_FRAGMENT.to_string(),
        format!("#{TINY_FRAGMENT}"),
        format!("http://x/a?b=c#{TINY_FRAGMENT}"),
    ] {
        let shared = decode_fragment(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(shared.scenario, load_str(TINY_V1).unwrap());
        assert_eq!(
            shared.view,
            ViewOptions {
                autoplay: true,
                start_ms: Some(1500),
                compare: vec!["a".into()],
                panels: vec!["clock".into()],
                ..Default::default()
            }
        );
    }
}
