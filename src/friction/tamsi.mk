# TAMSI implicit Stribeck solver: add sources here.
