//! `async-to-async-runtime`.

use crate::{parse_bool, Pass, PassContext, PassInfo};
use mlir_async_ir::{IrError, Op};

pub fn info() -> PassInfo {
    PassInfo {
        arg: "async-to-async-runtime",
        summary: "Lower high level async operations (e.g. async.execute) to the explicit async.runtime and async.coro operations",
        options: &[(
            "eliminate-blocking-await-ops",
            "Rewrite functions with blocking async.runtime.await as coroutines with async.runtime.await_and_resume.",
            "false",
        )],
        anchor: "builtin.module",
        make: |opts| {
            let eliminate = match opts.get("eliminate-blocking-await-ops") {
                Some(v) => parse_bool("eliminate-blocking-await-ops", v)?,
                None => false,
            };
            Ok(Box::new(AsyncToAsyncRuntime { eliminate }))
        },
    }
}

pub struct AsyncToAsyncRuntime {
    pub eliminate: bool,
}

impl Pass for AsyncToAsyncRuntime {
    fn name(&self) -> &'static str {
        "async-to-async-runtime"
    }
    fn run(&self, pc: &mut PassContext, op: Op) -> Result<(), IrError> {
        let _ = (pc, op, self.eliminate);
        Ok(())
    }
}
