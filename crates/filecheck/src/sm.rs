//! Source buffers and LLVM-style diagnostics (`file:line:col: kind: msg`,
//! the source line, then a caret line with `~` under highlighted ranges).
//!
//! Tests compare these lines byte for byte, so the layout follows
//! `llvm::SMDiagnostic::print`: tabs are expanded to 8 columns in both the
//! source and caret lines, and lines with non-ASCII bytes get no caret line.

/// A position inside one of the [`SourceMgr`] buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub buf: usize,
    pub off: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKind {
    Error,
    Note,
    Remark,
}

pub struct Buffer {
    pub name: String,
    pub text: Vec<u8>,
}

#[derive(Default)]
pub struct SourceMgr {
    pub bufs: Vec<Buffer>,
    /// `-color`: ANSI escapes as `llvm::WithColor` emits them.
    pub color: bool,
}

impl SourceMgr {
    pub fn add(&mut self, name: &str, text: Vec<u8>) -> usize {
        self.bufs.push(Buffer {
            name: name.to_string(),
            text,
        });
        self.bufs.len() - 1
    }

    /// One-based line and column of `loc`, as LLVM counts them (bytes).
    pub fn line_col(&self, loc: Loc) -> (usize, usize) {
        let text = &self.bufs[loc.buf].text;
        let off = loc.off.min(text.len());
        let before = &text[..off];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        (line, off - line_start + 1)
    }

    /// Prints one diagnostic to `out`; `ranges` are byte ranges in `loc.buf`.
    pub fn print(
        &self,
        out: &mut Vec<u8>,
        loc: Loc,
        kind: DiagKind,
        msg: &str,
        ranges: &[(usize, usize)],
    ) {
        let buf = &self.bufs[loc.buf];
        let text = &buf.text;
        let off = loc.off.min(text.len());
        let line_start = text[..off]
            .iter()
            .rposition(|&c| c == b'\n' || c == b'\r')
            .map_or(0, |p| p + 1);
        let line_end = text[off..]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .map_or(text.len(), |p| off + p);
        let (line, _) = self.line_col(loc);
        let col = off - line_start;
        let kind_str = match kind {
            DiagKind::Error => "error",
            DiagKind::Note => "note",
            DiagKind::Remark => "remark",
        };
        if self.color {
            let kc = match kind {
                DiagKind::Error => "\x1b[0;1;31m",
                DiagKind::Note => "\x1b[0;1;30m",
                DiagKind::Remark => "\x1b[0;1;34m",
            };
            out.extend_from_slice(
                format!(
                    "\x1b[1m{}:{}:{}: {kc}{}: \x1b[0m\x1b[1m{}\n\x1b[0m",
                    buf.name,
                    line,
                    col + 1,
                    kind_str,
                    msg
                )
                .as_bytes(),
            );
        } else {
            out.extend_from_slice(
                format!("{}:{}:{}: {}: {}\n", buf.name, line, col + 1, kind_str, msg).as_bytes(),
            );
        }
        let contents = &text[line_start..line_end];
        if contents.iter().any(|&c| c >= 0x80) {
            print_source_line(out, contents);
            return;
        }
        let ncols = contents.len();
        let mut caret = vec![b' '; ncols + 1];
        for &(s, e) in ranges {
            if s > line_end || e < line_start {
                continue;
            }
            let s = s.max(line_start) - line_start;
            let e = e.min(line_end) - line_start;
            for c in caret.iter_mut().take(e.min(ncols + 1)).skip(s) {
                *c = b'~';
            }
        }
        caret[col.min(ncols)] = b'^';
        while caret.last() == Some(&b' ') {
            caret.pop();
        }
        print_source_line(out, contents);
        let mut out_col = 0usize;
        for (i, &c) in caret.iter().enumerate() {
            if i >= contents.len() || contents[i] != b'\t' {
                out.push(c);
                out_col += 1;
                continue;
            }
            loop {
                out.push(c);
                out_col += 1;
                if out_col.is_multiple_of(8) {
                    break;
                }
            }
        }
        out.push(b'\n');
    }
}

fn print_source_line(out: &mut Vec<u8>, contents: &[u8]) {
    let mut out_col = 0usize;
    for &c in contents {
        if c != b'\t' {
            out.push(c);
            out_col += 1;
            continue;
        }
        loop {
            out.push(b' ');
            out_col += 1;
            if out_col.is_multiple_of(8) {
                break;
            }
        }
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_and_range_under_source_line() {
        let mut sm = SourceMgr::default();
        let b = sm.add("f.txt", b"one\n  two three\n".to_vec());
        let mut out = Vec::new();
        sm.print(
            &mut out,
            Loc { buf: b, off: 6 },
            DiagKind::Note,
            "here",
            &[(6, 9)],
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "f.txt:2:3: note: here\n  two three\n  ^~~\n"
        );
    }

    #[test]
    fn tabs_expand_to_eight_columns() {
        let mut sm = SourceMgr::default();
        let b = sm.add("t", b"\tx\n".to_vec());
        let mut out = Vec::new();
        sm.print(&mut out, Loc { buf: b, off: 1 }, DiagKind::Error, "m", &[]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "t:1:2: error: m\n        x\n        ^\n"
        );
    }
}
