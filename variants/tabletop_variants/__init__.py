"""Official rule variants shipped with tabletop, one module each."""
