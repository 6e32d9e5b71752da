func @one() {
  return
}
// ----
func @two() {
  return
}
