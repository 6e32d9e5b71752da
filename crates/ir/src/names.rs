//! Tables of interned names, declared with [`names!`](crate::names).

/// Declares a table of interned names: a struct with one [`Symbol`](crate::Symbol)
/// field per name and a `new(&mut Context)` that interns them all. A pass
/// makes its table once when it starts; building an op then names the op
/// and its attributes without a hash lookup, and telling an op by its name
/// compares two integers (`ctx.is(op, n.func_call)`).
///
/// ```
/// mlir_async_ir::names! {
///     /// What the pass builds and looks for.
///     pub struct Names {
///         func_call = "func.call",
///         /// The callee attribute.
///         callee = "callee",
///     }
/// }
/// let mut ctx = mlir_async_ir::Context::new();
/// let n = Names::new(&mut ctx);
/// assert_eq!(ctx.str(n.callee), "callee");
/// assert_eq!(ctx.lookup_sym("func.call"), Some(n.func_call));
/// ```
#[macro_export]
macro_rules! names {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident = $text:literal),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$field_meta])* pub $field: $crate::Symbol,)*
        }
        impl $name {
            /// Interns every name of the table.
            #[allow(dead_code)]
            $vis fn new(ctx: &mut $crate::Context) -> Self {
                $name { $($field: ctx.sym($text),)* }
            }
        }
    };
}
