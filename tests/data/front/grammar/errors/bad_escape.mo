// expect: 3:24: unknown escape sequence '\q' in string
model Escape
  String s = "bad here \q";
end Escape;
