module attributes {llvm.data_layout = "", foo.bar = 1 : i32} {
}
