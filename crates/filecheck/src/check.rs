//! Reading a check file into directives and verifying an input against them
//! (LLVM's `FileCheck::readCheckFile` and `FileCheck::checkInput`).

use crate::pattern::{
    eval_block, parse_numeric_block, parse_variable, CheckTy, Context, ErrDiag, Kind, MatchOutcome,
    Pattern, Request,
};
use crate::sm::{DiagKind, Loc, SourceMgr};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MatchType {
    FoundAndExpected,
    FoundButExcluded,
    FoundButWrongLine,
    FoundButDiscarded,
    FoundErrorNote,
    NoneAndExcluded,
    NoneButExpected,
    NoneForInvalidPattern,
    Fuzzy,
}

/// One diagnostic recorded for the input dump.
#[derive(Clone, Debug)]
pub struct Diag {
    pub check_ty: CheckTy,
    pub check_loc: Loc,
    pub match_ty: MatchType,
    pub range: (usize, usize),
    pub note: String,
}

#[derive(Clone)]
struct DagNot {
    pat: Pattern,
}

struct CheckString {
    pat: Pattern,
    prefix: String,
    loc: Loc,
    dag_not: Vec<DagNot>,
}

pub struct FileCheck {
    pub req: Request,
    pub ctx: Context,
    checks: Vec<CheckString>,
    /// Buffer ids `[start, end)` holding `--implicit-check-not` patterns.
    pub imp_range: (usize, usize),
    pub check_buf: usize,
}

/// LLVM's whitespace canonicalisation: drop `\r` before `\n`, and (unless
/// `--strict-whitespace`) squeeze runs of spaces and tabs into one space.
pub fn canonicalize(input: &[u8], strict: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let c = input[i];
        if c == b'\r' && input.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if strict || (c != b' ' && c != b'\t') {
            out.push(c);
            i += 1;
            continue;
        }
        out.push(b' ');
        while i + 1 < input.len() && (input[i + 1] == b' ' || input[i + 1] == b'\t') {
            i += 1;
        }
        i += 1;
    }
    out
}

fn is_part_of_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// Returns the directive type and the offset just after its suffix.
fn find_check_type(req: &Request, buf: &[u8], at: usize, prefix: &str) -> (CheckTy, usize) {
    let none = (CheckTy::new(Kind::None), at);
    if buf.len() - at <= prefix.len() {
        return none;
    }
    let mut r = at + prefix.len();
    let rest = |r: usize| &buf[r..];
    if req.comment_prefixes.iter().any(|p| p == prefix) {
        if rest(r).starts_with(b":") {
            return (CheckTy::new(Kind::Comment), r + 1);
        }
        return none;
    }
    let consume_modifiers = |mut ty: CheckTy, mut r: usize| -> (CheckTy, usize) {
        if buf.get(r) == Some(&b':') {
            return (ty, r + 1);
        }
        if buf.get(r) != Some(&b'{') {
            return (CheckTy::new(Kind::None), r);
        }
        r += 1;
        loop {
            while r < buf.len() && buf[r].is_ascii_whitespace() {
                r += 1;
            }
            if buf[r..].starts_with(b"LITERAL") {
                ty.literal = true;
                r += 7;
            } else {
                return (CheckTy::new(Kind::None), r);
            }
            while r < buf.len() && buf[r].is_ascii_whitespace() {
                r += 1;
            }
            if buf.get(r) == Some(&b',') {
                r += 1;
                continue;
            }
            break;
        }
        if !buf[r..].starts_with(b"}:") {
            return (CheckTy::new(Kind::None), r);
        }
        (ty, r + 2)
    };
    if rest(r).starts_with(b":") {
        return (CheckTy::new(Kind::Plain), r + 1);
    }
    if rest(r).starts_with(b"{") {
        return consume_modifiers(CheckTy::new(Kind::Plain), r);
    }
    if !rest(r).starts_with(b"-") {
        return none;
    }
    r += 1;
    if rest(r).starts_with(b"COUNT-") {
        r += 6;
        let ds = r;
        while r < buf.len() && buf[r].is_ascii_digit() {
            r += 1;
        }
        let bad = (CheckTy::new(Kind::BadCount), r);
        if r == ds {
            return bad;
        }
        let n: u64 = std::str::from_utf8(&buf[ds..r])
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        if n == 0 || n > i32::MAX as u64 {
            return bad;
        }
        if !matches!(buf.get(r), Some(b':') | Some(b'{')) {
            return bad;
        }
        let mut ty = CheckTy::new(Kind::Plain);
        ty.count = n as usize;
        return consume_modifiers(ty, r);
    }
    for combo in [
        &b"DAG-NOT:"[..],
        b"NOT-DAG:",
        b"NEXT-NOT:",
        b"NOT-NEXT:",
        b"SAME-NOT:",
        b"NOT-SAME:",
        b"EMPTY-NOT:",
        b"NOT-EMPTY:",
    ] {
        if rest(r).starts_with(combo) {
            return (CheckTy::new(Kind::BadNot), r);
        }
    }
    for (word, kind) in [
        (&b"NEXT"[..], Kind::Next),
        (b"SAME", Kind::Same),
        (b"NOT", Kind::Not),
        (b"DAG", Kind::Dag),
        (b"LABEL", Kind::Label),
        (b"EMPTY", Kind::Empty),
    ] {
        if rest(r).starts_with(word) {
            return consume_modifiers(CheckTy::new(kind), r + word.len());
        }
    }
    none
}

/// Checks the prefixes given on the command line; prints LLVM's message.
pub fn validate_prefixes(req: &Request, out: &mut Vec<u8>) -> bool {
    let mut seen: Vec<String> = Vec::new();
    if req.check_prefixes.is_empty() {
        seen.push("CHECK".into());
    }
    if req.comment_prefixes.is_empty() {
        seen.push("COM".into());
        seen.push("RUN".into());
    }
    for (kind, list) in [
        ("check", &req.check_prefixes),
        ("comment", &req.comment_prefixes),
    ] {
        for p in list {
            if p.is_empty() {
                out.extend_from_slice(
                    format!("error: supplied {kind} prefix must not be the empty string\n")
                        .as_bytes(),
                );
                return false;
            }
            if !p
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
            {
                out.extend_from_slice(format!("error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'\n").as_bytes());
                return false;
            }
            if seen.contains(p) {
                out.extend_from_slice(format!("error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'\n").as_bytes());
                return false;
            }
            seen.push(p.clone());
        }
    }
    true
}

impl FileCheck {
    pub fn new(mut req: Request) -> Self {
        if req.check_prefixes.is_empty() {
            req.check_prefixes.push("CHECK".into());
            req.is_default_check_prefix = true;
        }
        if req.comment_prefixes.is_empty() {
            req.comment_prefixes = vec!["COM".into(), "RUN".into()];
        }
        FileCheck {
            req,
            ctx: Context::default(),
            checks: Vec::new(),
            imp_range: (0, 0),
            check_buf: 0,
        }
    }

    fn define_cmdline_vars(&mut self, sm: &mut SourceMgr, out: &mut Vec<u8>) -> bool {
        if self.req.global_defines.is_empty() {
            return true;
        }
        let mut text = String::new();
        let mut idx: Vec<(usize, usize)> = Vec::new();
        for (n, def) in self.req.global_defines.iter().enumerate() {
            let pre = format!("Global define #{}: ", n + 1);
            let Some(eq) = def.find('=') else {
                idx.push((text.len(), 0));
                continue;
            };
            if def.starts_with('#') {
                text.push_str(&format!("{pre}{def} (parsed as: [["));
                let mut sub = def.clone();
                sub.replace_range(eq..eq + 1, ":");
                idx.push((text.len(), sub.len()));
                text.push_str(&format!("{sub}]])\n"));
            } else {
                text.push_str(&pre);
                idx.push((text.len(), def.len()));
                text.push_str(&format!("{def}\n"));
            }
        }
        let b = sm.add("Global defines", text.into_bytes());
        let mut ok = true;
        let mut errs: Vec<ErrDiag> = Vec::new();
        for (start, len) in idx {
            let s = sm.bufs[b].text.clone();
            let at = |off| Loc { buf: b, off };
            if len == 0 {
                errs.push(ErrDiag::at(
                    at(start),
                    "missing equal sign in global definition",
                ));
                continue;
            }
            let def = &s[start..start + len];
            if def[0] == b'#' {
                match parse_numeric_block(&mut self.ctx, &s, b, start + 1, start + len, false, None)
                {
                    Err(e) => errs.push(e),
                    Ok(block) => match eval_block(&self.ctx, &block) {
                        Err(v) => errs.extend(v),
                        Ok(v) => {
                            if let Some(id) = block.def {
                                self.ctx.num_vars[id].value = Some(v);
                                let name = self.ctx.num_vars[id].name.clone();
                                self.ctx.num_table.insert(name, id);
                            }
                        }
                    },
                }
            } else {
                let eq = def.iter().position(|&c| c == b'=').unwrap_or(def.len());
                let name = match parse_variable(&s, b, start, start + eq) {
                    Ok((name, pseudo, after)) => {
                        if pseudo || after != start + eq {
                            errs.push(ErrDiag::at(
                                at(start),
                                format!(
                                    "invalid name in string variable definition '{}'",
                                    String::from_utf8_lossy(&def[..eq])
                                ),
                            ));
                            continue;
                        }
                        name
                    }
                    Err(e) => {
                        errs.push(e);
                        continue;
                    }
                };
                if self.ctx.num_table.contains_key(&name) {
                    errs.push(ErrDiag::at(
                        at(start),
                        format!("numeric variable with name '{name}' already exists"),
                    ));
                    continue;
                }
                self.ctx
                    .vars
                    .insert(name.clone(), (def[eq + 1..].to_vec(), None));
                self.ctx.defined_string_vars.insert(name);
            }
        }
        for e in errs {
            ok = false;
            sm.print(out, e.loc, DiagKind::Error, &e.msg, &[]);
            out.push(b'\n');
        }
        ok
    }

    /// Parses the check file (already canonicalised and added to `sm` as
    /// `check_buf`). Returns false after printing an error.
    pub fn read_check_file(
        &mut self,
        sm: &mut SourceMgr,
        check_buf: usize,
        out: &mut Vec<u8>,
    ) -> bool {
        self.check_buf = check_buf;
        if !self.define_cmdline_vars(sm, out) {
            return false;
        }
        self.ctx.create_line_var();
        let mut implicit: Vec<DagNot> = Vec::new();
        let imp_pats = self.req.implicit_check_not.clone();
        for p in &imp_pats {
            let pre = "-implicit-check-not='";
            let b = sm.add("command line", format!("{pre}{p}'").into_bytes());
            if self.imp_range.0 == self.imp_range.1 {
                self.imp_range = (b, b + 1);
            } else {
                self.imp_range.1 += 1;
            }
            let mut pat = Pattern::new(
                CheckTy::new(Kind::Not),
                Loc {
                    buf: b,
                    off: pre.len(),
                },
                None,
            );
            let _ = pat.parse(
                sm,
                out,
                &mut self.ctx,
                b,
                pre.len(),
                pre.len() + p.len(),
                "IMPLICIT-CHECK",
                &self.req,
            );
            // LLVM ignores the pattern's parse errors here, but not its
            // `exit(1)` (an unbalanced `]` in a variable's regex).
            if self.ctx.exit_status_one {
                return false;
            }
            implicit.push(DagNot { pat });
        }
        let mut dag_not = implicit.clone();
        let text = sm.bufs[check_buf].text.clone();
        let mut line = 1usize;
        let mut pos = 0usize;
        let mut prefixes: Vec<String> = self.req.check_prefixes.clone();
        prefixes.extend(self.req.comment_prefixes.iter().cloned());
        prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
        let mut not_found: std::collections::BTreeSet<String> =
            self.req.check_prefixes.iter().cloned().collect();
        let distinct = not_found.len();
        // The next occurrence of each prefix at or after the scan position,
        // searched again only once the scan passes it: searching every
        // prefix from every directive to the end of the file was quadratic
        // when a prefix (`RUN`, `COM`) does not occur at all.
        let finders: Vec<memchr::memmem::Finder> = prefixes
            .iter()
            .map(|p| memchr::memmem::Finder::new(p.as_bytes()))
            .collect();
        let mut next: Vec<Option<usize>> = finders.iter().map(|f| f.find(&text)).collect();
        loop {
            // Find the first valid prefix occurrence.
            let mut found: Option<(String, CheckTy, usize)> = None;
            while pos < text.len() {
                let mut best: Option<(usize, &String)> = None;
                for (k, p) in prefixes.iter().enumerate() {
                    if next[k].is_some_and(|at| at < pos) {
                        next[k] = finders[k].find(&text[pos..]).map(|at| at + pos);
                    }
                    if let Some(at) = next[k] {
                        if best.is_none_or(|(b, _)| at < b) {
                            best = Some((at, p));
                        }
                    }
                }
                let Some((at, p)) = best else { break };
                line += text[pos..at].iter().filter(|&&c| c == b'\n').count();
                let skipped_last = if at > pos { Some(text[at - 1]) } else { None };
                pos = at;
                if skipped_last.is_none_or(|c| !is_part_of_word(c)) {
                    let (ty, after) = find_check_type(&self.req, &text, at, p);
                    if ty.kind != Kind::None {
                        found = Some((p.clone(), ty, after));
                        break;
                    }
                }
                let mut k = at + p.len();
                while k < text.len() && is_part_of_word(text[k]) {
                    k += 1;
                }
                pos = k;
            }
            let Some((prefix, ty, after)) = found else {
                break;
            };
            if ty.kind != Kind::Comment {
                not_found.remove(&prefix);
            }
            let prefix_start = pos;
            // LLVM skips to the suffix's end unless nothing follows it: a
            // directive ending the file (`CHECK-DAG:` without a newline)
            // keeps the text after the prefix (`-DAG:`) as its pattern.
            pos = if after == pos || after >= text.len() {
                pos + prefix.len()
            } else {
                after
            };
            let at = |off| Loc {
                buf: check_buf,
                off,
            };
            if ty.kind == Kind::BadNot {
                sm.print(
                    out,
                    at(pos),
                    DiagKind::Error,
                    &format!("unsupported -NOT combo on prefix '{prefix}'"),
                    &[],
                );
                return false;
            }
            if ty.kind == Kind::BadCount {
                sm.print(
                    out,
                    at(pos),
                    DiagKind::Error,
                    &format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                    &[],
                );
                return false;
            }
            if !(self.req.strict_whitespace && self.req.match_full_lines) {
                while pos < text.len() && (text[pos] == b' ' || text[pos] == b'\t') {
                    pos += 1;
                }
            }
            let eol = text[pos..]
                .iter()
                .position(|&c| c == b'\n' || c == b'\r')
                .map_or(text.len(), |p| p + pos);
            let pat_start = pos;
            pos = eol;
            if ty.kind == Kind::Comment {
                continue;
            }
            let mut pat = Pattern::new(ty, at(pat_start), Some(line));
            if pat
                .parse(
                    sm,
                    out,
                    &mut self.ctx,
                    check_buf,
                    pat_start,
                    eol,
                    &prefix,
                    &self.req,
                )
                .is_err()
            {
                return false;
            }
            if ty.kind == Kind::Label && pat.has_variable() {
                sm.print(
                    out,
                    at(prefix_start),
                    DiagKind::Error,
                    &format!("found '{prefix}-LABEL:' with variable definition or use"),
                    &[],
                );
                return false;
            }
            if matches!(ty.kind, Kind::Next | Kind::Same | Kind::Empty) && self.checks.is_empty() {
                let t = match ty.kind {
                    Kind::Next => "NEXT",
                    Kind::Empty => "EMPTY",
                    _ => "SAME",
                };
                sm.print(
                    out,
                    at(prefix_start),
                    DiagKind::Error,
                    &format!("found '{prefix}-{t}' without previous '{prefix}: line"),
                    &[],
                );
                return false;
            }
            if matches!(ty.kind, Kind::Dag | Kind::Not) {
                dag_not.push(DagNot { pat });
                continue;
            }
            self.checks.push(CheckString {
                pat,
                prefix,
                loc: at(pat_start),
                dag_not: std::mem::replace(&mut dag_not, implicit.clone()),
            });
        }
        let none_found = not_found.len() == distinct;
        let unexpectedly_unused = !self.req.allow_unused_prefixes && !not_found.is_empty();
        if (none_found || unexpectedly_unused)
            && (implicit.is_empty() || !self.req.is_default_check_prefix)
        {
            let list: Vec<String> = not_found.iter().map(|p| format!("'{p}:'")).collect();
            out.extend_from_slice(
                format!(
                    "error: no check strings found with prefix{}{}\n",
                    if not_found.len() > 1 { "es " } else { " " },
                    list.join(", ")
                )
                .as_bytes(),
            );
            return false;
        }
        if !dag_not.is_empty() {
            let loc = Loc {
                buf: check_buf,
                off: pos.min(text.len()),
            };
            self.checks.push(CheckString {
                pat: Pattern::new(CheckTy::new(Kind::Eof), loc, Some(line + 1)),
                prefix: self.req.check_prefixes[0].clone(),
                loc,
                dag_not,
            });
        }
        true
    }

    /// Verifies `sm.bufs[input_buf]`; true when every check passed.
    pub fn check_input(
        &mut self,
        sm: &SourceMgr,
        input_buf: usize,
        out: &mut Vec<u8>,
        diags: Option<&mut Vec<Diag>>,
    ) -> bool {
        let mut run = Run {
            sm,
            input: &sm.bufs[input_buf].text,
            input_buf,
            req: &self.req,
            ctx: &mut self.ctx,
            out,
            diags,
        };
        let checks = &self.checks;
        let end = run.input.len();
        let mut buf = 0usize;
        let mut failed = false;
        let (mut i, mut j) = (0usize, 0usize);
        let e = checks.len();
        loop {
            let region;
            if j == e {
                region = (buf, end);
            } else {
                let cs = &checks[j];
                if cs.pat.ty.kind != Kind::Label {
                    j += 1;
                    continue;
                }
                let Some((p, l)) = run.check(cs, buf, end, true) else {
                    return false;
                };
                region = (buf, buf + p + l);
                buf += p + l;
                j += 1;
            }
            if i != 0 && run.req.enable_var_scope {
                run.ctx.clear_local_vars();
            }
            let mut rs = region.0;
            while i != j {
                match run.check(&checks[i], rs, region.1, false) {
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                    Some((p, l)) => rs += p + l,
                }
                i += 1;
            }
            if j == e {
                break;
            }
        }
        !failed
    }
}

struct Run<'a, 'd> {
    sm: &'a SourceMgr,
    input: &'a [u8],
    input_buf: usize,
    req: &'a Request,
    ctx: &'a mut Context,
    out: &'a mut Vec<u8>,
    diags: Option<&'d mut Vec<Diag>>,
}

impl Run<'_, '_> {
    fn iloc(&self, off: usize) -> Loc {
        Loc {
            buf: self.input_buf,
            off,
        }
    }

    fn push_diag(&mut self, pat: &Pattern, mt: MatchType, range: (usize, usize), note: String) {
        if let Some(d) = self.diags.as_deref_mut() {
            d.push(Diag {
                check_ty: pat.ty,
                check_loc: pat.loc,
                match_ty: mt,
                range,
                note,
            });
        }
    }

    /// Returns true when an error was reported.
    #[allow(clippy::too_many_arguments)]
    fn print_match(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count: usize,
        start: usize,
        pos: usize,
        len: usize,
        errs: Vec<ErrDiag>,
    ) -> bool {
        let has_error = !expected || !errs.is_empty();
        let mut print_diag = true;
        if !has_error {
            if !self.req.verbose {
                return false;
            }
            if !self.req.verbose_verbose && pat.ty.kind == Kind::Eof {
                return false;
            }
            print_diag = self.diags.is_none();
        }
        let mt = if expected {
            MatchType::FoundAndExpected
        } else {
            MatchType::FoundButExcluded
        };
        let range = (start + pos, start + pos + len);
        let subs = pat.substitution_notes(self.ctx);
        let caps = pat.captures(self.ctx);
        if self.diags.is_some() {
            self.push_diag(pat, mt, range, String::new());
            for s in &subs {
                self.push_diag(pat, mt, (range.0, range.0), s.clone());
            }
            for (name, r) in &caps {
                self.push_diag(pat, mt, *r, format!("captured var \"{name}\""));
            }
        }
        if !print_diag {
            return has_error;
        }
        let mut msg = format!(
            "{}: {} string found in input",
            pat.ty.description(prefix),
            if expected { "expected" } else { "excluded" }
        );
        if pat.ty.count > 1 {
            msg.push_str(&format!(" ({} out of {})", count, pat.ty.count));
        }
        let kind = if expected {
            DiagKind::Remark
        } else {
            DiagKind::Error
        };
        self.sm.print(self.out, pat.loc, kind, &msg, &[]);
        self.sm.print(
            self.out,
            self.iloc(range.0),
            DiagKind::Note,
            "found here",
            &[range],
        );
        for s in &subs {
            self.sm
                .print(self.out, self.iloc(range.0), DiagKind::Note, s, &[]);
        }
        for (name, r) in &caps {
            self.sm.print(
                self.out,
                self.iloc(r.0),
                DiagKind::Note,
                &format!("captured var \"{name}\""),
                &[*r],
            );
        }
        for e in errs {
            self.sm.print(self.out, e.loc, DiagKind::Error, &e.msg, &[]);
            self.push_diag(pat, MatchType::FoundErrorNote, e.range, e.msg.clone());
        }
        has_error
    }

    #[allow(clippy::too_many_arguments)]
    fn print_no_match(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count: usize,
        start: usize,
        end: usize,
        errs: Vec<ErrDiag>,
    ) -> bool {
        let mut has_error = expected;
        let mut has_pattern_error = false;
        let mut mt = if expected {
            MatchType::NoneButExpected
        } else {
            MatchType::NoneAndExcluded
        };
        let mut msgs = Vec::new();
        for e in &errs {
            has_error = true;
            has_pattern_error = true;
            mt = MatchType::NoneForInvalidPattern;
            self.sm.print(self.out, e.loc, DiagKind::Error, &e.msg, &[]);
            msgs.push(e.msg.clone());
        }
        let mut print_diag = true;
        if !has_error {
            if !self.req.verbose_verbose {
                return false;
            }
            print_diag = self.diags.is_none();
        }
        let subs = pat.substitution_notes(self.ctx);
        if self.diags.is_some() {
            self.push_diag(pat, mt, (start, end), String::new());
            for m in msgs {
                self.push_diag(pat, mt, (start, start), m);
            }
            for s in &subs {
                self.push_diag(pat, mt, (start, start), s.clone());
            }
        }
        if !print_diag {
            return has_error;
        }
        if !has_pattern_error {
            let mut msg = format!(
                "{}: {} string not found in input",
                pat.ty.description(prefix),
                if expected { "expected" } else { "excluded" }
            );
            if pat.ty.count > 1 {
                msg.push_str(&format!(" ({} out of {})", count, pat.ty.count));
            }
            let kind = if expected {
                DiagKind::Error
            } else {
                DiagKind::Remark
            };
            self.sm.print(self.out, pat.loc, kind, &msg, &[]);
            self.sm.print(
                self.out,
                self.iloc(start),
                DiagKind::Note,
                "scanning from here",
                &[],
            );
        }
        for s in &subs {
            self.sm
                .print(self.out, self.iloc(start), DiagKind::Note, s, &[]);
        }
        if expected {
            self.fuzzy(pat, start, end);
        }
        has_error
    }

    fn fuzzy(&mut self, pat: &Pattern, start: usize, end: usize) {
        let buf = &self.input[start..end];
        let lim = buf.len().min(4096);
        if 4096usize * 2048 < lim * pat.pattern_len() {
            return;
        }
        let mut lines = 0usize;
        let mut best: Option<usize> = None;
        let mut best_q = 0f64;
        for i in 0..lim {
            if buf[i] == b'\n' {
                lines += 1;
            }
            if buf[i] == b' ' || buf[i] == b'\t' {
                continue;
            }
            let d = pat.match_distance(&buf[i..]);
            let q = d as f64 + lines as f64 / 100.0;
            if best.is_none() || q < best_q {
                best = Some(i);
                best_q = q;
            }
        }
        if let Some(b) = best {
            if b != 0 && best_q < 50.0 {
                let at = start + b;
                self.push_diag(pat, MatchType::Fuzzy, (at, at), String::new());
                self.sm.print(
                    self.out,
                    self.iloc(at),
                    DiagKind::Note,
                    "possible intended match here",
                    &[],
                );
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count: usize,
        start: usize,
        end: usize,
        res: MatchOutcome,
    ) -> Result<(usize, usize), ()> {
        match res {
            MatchOutcome::Found { pos, len, errs } => {
                if self.print_match(expected, prefix, pat, count, start, pos, len, errs) {
                    Err(())
                } else {
                    Ok((pos, len))
                }
            }
            MatchOutcome::NotFound => {
                if self.print_no_match(expected, prefix, pat, count, start, end, vec![]) {
                    Err(())
                } else {
                    Ok((0, 0))
                }
            }
            MatchOutcome::Error(e) => {
                self.print_no_match(expected, prefix, pat, count, start, end, e);
                Err(())
            }
        }
    }

    fn wrong_line(&mut self, pat: &Pattern, range: (usize, usize)) {
        if self.req.verbose {
            if let Some(d) = self.diags.as_deref_mut() {
                if let Some(last) = d.last().map(|x| x.check_loc) {
                    for x in d.iter_mut().rev() {
                        if x.check_loc != last {
                            break;
                        }
                        x.match_ty = MatchType::FoundButWrongLine;
                    }
                }
            }
        } else {
            self.push_diag(pat, MatchType::FoundButWrongLine, range, String::new());
        }
    }

    /// Returns (match position relative to `start`, match length).
    fn check(
        &mut self,
        cs: &CheckString,
        start: usize,
        end: usize,
        label_scan: bool,
    ) -> Option<(usize, usize)> {
        let mut last_pos = 0;
        let mut nots: Vec<&DagNot> = Vec::new();
        if !label_scan {
            last_pos = self.check_dag(cs, start, end, &mut nots)?;
        }
        let mut last_end = last_pos;
        let mut first = 0;
        for i in 1..=cs.pat.ty.count {
            let ms = start + last_end;
            let res = cs
                .pat
                .match_at(self.ctx, self.input, ms, end, self.input_buf);
            let (pos, len) = self
                .report(true, &cs.prefix, &cs.pat, i, ms, end, res)
                .ok()?;
            if i == 1 {
                first = last_pos + pos;
            }
            last_end += pos + len;
        }
        let match_len = last_end - first;
        if !label_scan {
            let mpos = first - last_pos;
            let skipped = (start + last_pos, start + last_pos + mpos);
            let range = (skipped.1, skipped.1 + match_len);
            if self.check_next(cs, skipped) {
                self.wrong_line(&cs.pat, range);
                return None;
            }
            if self.check_same(cs, skipped) {
                self.wrong_line(&cs.pat, range);
                return None;
            }
            if self.check_not(&cs.prefix, skipped, &nots) {
                return None;
            }
        }
        Some((first, match_len))
    }

    fn count_newlines(&self, r: (usize, usize)) -> (usize, usize) {
        let s = &self.input[r.0..r.1];
        let mut n = 0;
        let mut first = r.1;
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            if c == b'\n' || c == b'\r' {
                n += 1;
                if i + 1 < s.len() && (s[i + 1] == b'\n' || s[i + 1] == b'\r') && s[i + 1] != c {
                    i += 1;
                }
                i += 1;
                if n == 1 {
                    first = r.0 + i;
                }
                continue;
            }
            i += 1;
        }
        (n, first)
    }

    fn check_next(&mut self, cs: &CheckString, r: (usize, usize)) -> bool {
        if !matches!(cs.pat.ty.kind, Kind::Next | Kind::Empty) {
            return false;
        }
        let name = format!(
            "{}{}",
            cs.prefix,
            if cs.pat.ty.kind == Kind::Empty {
                "-EMPTY"
            } else {
                "-NEXT"
            }
        );
        let (n, first) = self.count_newlines(r);
        if n == 0 {
            self.sm.print(
                self.out,
                cs.loc,
                DiagKind::Error,
                &format!("{name}: is on the same line as previous match"),
                &[],
            );
            self.note_adjacent_matches(r);
            return true;
        }
        if n != 1 {
            self.sm.print(
                self.out,
                cs.loc,
                DiagKind::Error,
                &format!("{name}: is not on the line after the previous match"),
                &[],
            );
            self.note_adjacent_matches(r);
            self.sm.print(
                self.out,
                self.iloc(first),
                DiagKind::Note,
                "non-matching line after previous match is here",
                &[],
            );
            return true;
        }
        false
    }

    /// The two notes of every -NEXT/-SAME/-EMPTY line-position error:
    /// where the match was and where the previous one ended.
    fn note_adjacent_matches(&mut self, r: (usize, usize)) {
        self.sm.print(
            self.out,
            self.iloc(r.1),
            DiagKind::Note,
            "'next' match was here",
            &[],
        );
        self.sm.print(
            self.out,
            self.iloc(r.0),
            DiagKind::Note,
            "previous match ended here",
            &[],
        );
    }

    fn check_same(&mut self, cs: &CheckString, r: (usize, usize)) -> bool {
        if cs.pat.ty.kind != Kind::Same {
            return false;
        }
        let (n, _) = self.count_newlines(r);
        if n != 0 {
            self.sm.print(
                self.out,
                cs.loc,
                DiagKind::Error,
                &format!(
                    "{}-SAME: is not on the same line as the previous match",
                    cs.prefix
                ),
                &[],
            );
            self.note_adjacent_matches(r);
            return true;
        }
        false
    }

    /// LLVM 14 reports CHECK-NOT/-DAG results under the prefix of the
    /// directive they precede, not their own (visible with mixed prefixes).
    fn check_not(&mut self, prefix: &str, r: (usize, usize), nots: &[&DagNot]) -> bool {
        let mut fail = false;
        for n in nots {
            let res = n
                .pat
                .match_at(self.ctx, self.input, r.0, r.1, self.input_buf);
            if self
                .report(false, prefix, &n.pat, 1, r.0, r.1, res)
                .is_err()
            {
                fail = true;
            }
        }
        fail
    }

    fn check_dag<'c>(
        &mut self,
        cs: &'c CheckString,
        start: usize,
        end: usize,
        nots: &mut Vec<&'c DagNot>,
    ) -> Option<usize> {
        if cs.dag_not.is_empty() {
            return Some(0);
        }
        let mut start_pos = 0usize;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        let n = cs.dag_not.len();
        for (idx, dn) in cs.dag_not.iter().enumerate() {
            let pat = &dn.pat;
            if pat.ty.kind == Kind::Not {
                nots.push(dn);
                continue;
            }
            let mut match_len;
            let mut match_pos = start_pos;
            let mut mi = 0usize;
            loop {
                let ms = start + match_pos;
                let res = pat.match_at(self.ctx, self.input, ms, end, self.input_buf);
                let needs_report = !matches!(&res, MatchOutcome::Found { errs, .. } if errs.is_empty())
                    || self.req.verbose_verbose;
                let (p, l) = if needs_report {
                    self.report(true, &cs.prefix, pat, 1, ms, end, res).ok()?
                } else {
                    match res {
                        MatchOutcome::Found { pos, len, .. } => (pos, len),
                        _ => return None,
                    }
                };
                match_len = l;
                match_pos += p;
                let m = (match_pos, match_pos + match_len);
                if self.req.allow_deprecated_dag_overlap {
                    if ranges.is_empty() {
                        ranges.push(m);
                    } else {
                        ranges[0].0 = ranges[0].0.min(m.0);
                        ranges[0].1 = ranges[0].1.max(m.1);
                    }
                    break;
                }
                let mut overlap = false;
                while mi < ranges.len() {
                    if m.0 < ranges[mi].1 {
                        overlap = ranges[mi].0 < m.1;
                        break;
                    }
                    mi += 1;
                }
                if !overlap {
                    ranges.insert(mi, m);
                    break;
                }
                if self.req.verbose_verbose {
                    if let Some(d) = self.diags.as_deref_mut() {
                        if let Some(last) = d.last().map(|x| x.check_loc) {
                            for x in d.iter_mut().rev() {
                                if x.check_loc != last {
                                    break;
                                }
                                x.match_ty = MatchType::FoundButDiscarded;
                            }
                        }
                    } else {
                        let old = (start + ranges[mi].0, start + ranges[mi].1);
                        self.sm.print(
                            self.out,
                            self.iloc(old.0),
                            DiagKind::Note,
                            "match discarded, overlaps earlier DAG match here",
                            &[old],
                        );
                    }
                }
                match_pos = ranges[mi].1;
            }
            if !self.req.verbose_verbose {
                self.print_match(
                    true,
                    &cs.prefix,
                    pat,
                    1,
                    start,
                    match_pos,
                    match_len,
                    vec![],
                );
            }
            let group_end = idx + 1 == n || cs.dag_not[idx + 1].pat.ty.kind == Kind::Not;
            if group_end {
                if !nots.is_empty() {
                    let first = ranges.first().map_or(start_pos, |r| r.0);
                    if self.check_not(&cs.prefix, (start + start_pos, start + first), nots) {
                        return None;
                    }
                    nots.clear();
                }
                start_pos = ranges.last().map_or(start_pos, |r| r.1);
                ranges.clear();
            }
        }
        Some(start_pos)
    }
}
