//! The ids of the topology's nodes, built in one place: the drawing's boxes (`topo`) and
//! the moves a frame animates (`track`) must name a node the same way, or a message
//! flies to nowhere. A kind prefix keeps an exchange and a queue of the same name apart.

/// The one publisher box (every publish starts there).
pub const PUBLISHER: &str = "p:publisher";
/// The name shown for a message taken by `basic.get` (no consumer).
pub const BASIC_GET: &str = "basic.get";

pub fn exchange(name: &str) -> String {
    format!("x:{name}")
}

pub fn queue(name: &str) -> String {
    format!("q:{name}")
}

pub fn consumer(name: &str) -> String {
    format!("c:{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_different_kinds_are_different_nodes() {
        assert_ne!(exchange("orders"), queue("orders"));
        assert_ne!(queue("orders"), consumer("orders"));
        assert_ne!(exchange(""), PUBLISHER);
    }
}
