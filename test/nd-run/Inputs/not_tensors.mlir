func.func @main(%n: index) -> index {
  return %n : index
}
