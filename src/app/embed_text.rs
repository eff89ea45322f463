//! The embed's words in the page's language: its panel names, its notes on options a
//! host page got wrong, and their hints.

use super::embed::PANELS;
use super::i18n::Lang;

pub(super) fn tx(lang: Lang, key: &str) -> &'static str {
    let zh = lang == Lang::Zh;
    match key {
        "open" => {
            if zh {
                "在 delaylab 中打开 ↗"
            } else {
                "Open in delaylab ↗"
            }
        }
        "open_title" => {
            if zh {
                "在新标签页打开完整的 playground,场景相同"
            } else {
                "The full playground with this scenario, in a new tab"
            }
        }
        "time" => {
            if zh {
                "虚拟时间"
            } else {
                "virtual time"
            }
        }
        "bad_link" => {
            if zh {
                "这个嵌入链接打不开:"
            } else {
                "This embed link could not be opened:"
            }
        }
        "fresh" => {
            if zh {
                "改为打开空白 playground"
            } else {
                "Open an empty playground instead"
            }
        }
        "ignored" => {
            if zh {
                "已忽略的选项:"
            } else {
                "Options ignored:"
            }
        }
        "embed" => {
            if zh {
                "嵌入"
            } else {
                "Embed"
            }
        }
        "embed_h" => {
            if zh {
                "嵌入这个场景"
            } else {
                "Embed this scenario"
            }
        }
        "embed_hint" => {
            if zh {
                "把这段 HTML 粘贴到网页(课程、文档)里:一个可运行的小 playground。宿主页面可以用 postMessage 控制它(见 README 的 Embedding 一节)。"
            } else {
                "Paste this HTML into a web page (a course, the docs): a small live playground. The host page can drive it with postMessage (README, \"Embedding\")."
            }
        }
        "autoplay" => {
            if zh {
                "自动播放"
            } else {
                "autoplay"
            }
        }
        "read_only" => {
            if zh {
                "只读"
            } else {
                "read-only"
            }
        }
        "copy" => {
            if zh {
                "复制"
            } else {
                "Copy"
            }
        }
        "copied" => {
            if zh {
                "已复制"
            } else {
                "Copied"
            }
        }
        "copy_failed" => {
            if zh {
                "无法写入剪贴板:请选中文本后按 Ctrl+C。"
            } else {
                "The clipboard refused: select the text and press Ctrl+C."
            }
        }
        "close" => {
            if zh {
                "关闭"
            } else {
                "Close"
            }
        }
        "hint_flag" => {
            if zh {
                "应为 1 或 0"
            } else {
                "1 or 0"
            }
        }
        "hint_panels" => {
            if zh {
                "可选:"
            } else {
                "one of "
            }
        }
        "hint_speed" => {
            if zh {
                "应为 1 到 100000"
            } else {
                "1 to 100000"
            }
        }
        "hint_start" => {
            if zh {
                "例如 6:00、6m 或 360000,最多 30 天"
            } else {
                "6:00, 6m or 360000, at most 30 days"
            }
        }
        "hint_lang" => {
            if zh {
                "应为 en 或 zh"
            } else {
                "en or zh"
            }
        }
        "hint_origin" => {
            if zh {
                "应为 https://school.example 这样的源(只有协议和主机)"
            } else {
                "an origin like https://school.example: scheme and host only"
            }
        }
        _ => "",
    }
}

/// One option problem in `lang`: `speed="fast" (1 to 100000)`.
pub fn note_text(lang: Lang, (what, hint): &(String, &'static str)) -> String {
    match *hint {
        "" => what.clone(),
        "hint_panels" => format!("{what} ({}{})", tx(lang, hint), PANELS.join(", ")),
        _ => format!("{what} ({})", tx(lang, hint)),
    }
}
