// `compiled_and_read! { NAME; items }` declares the items (so the derive compiles them) and
// keeps their source text in `const NAME: &str` (so the linter reads the same designs).

macro_rules! compiled_and_read {
    ($src:ident; $($item:tt)*) => {
        $($item)*
        const $src: &str = stringify!($($item)*);
    };
}
