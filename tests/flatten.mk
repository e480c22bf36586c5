# front-end tests, second half: loading, lookup, modifiers, connect, flattening.
