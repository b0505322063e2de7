"""Views as deltas (gamehost.proto, CAPABILITY_VIEW_DELTAS; game.proto, ViewDelta): a
decision's view sent as the fields that changed since the view of the last decision the
stream answered. The fields are found by number in the messages' descriptors, so a field
added to View or Position needs no change here."""

_POSITION_FIELD = 2  # View.position: changed field by field, never whole


def _replace(dst, src, f):
    """Sets field `f` of `dst` to its value in `src` (a repeated field whole)."""
    dst.ClearField(f.name)
    if f.label == f.LABEL_REPEATED:
        if f.type == f.TYPE_MESSAGE:
            for m in getattr(src, f.name):
                getattr(dst, f.name).add().CopyFrom(m)
        else:
            getattr(dst, f.name).extend(getattr(src, f.name))
    elif f.type == f.TYPE_MESSAGE:
        if src.HasField(f.name):
            getattr(dst, f.name).CopyFrom(getattr(src, f.name))
    else:
        setattr(dst, f.name, getattr(src, f.name))


def _resolve(descriptor, numbers, forbidden=None):
    fields = []
    for n in numbers:
        f = None if n == forbidden else descriptor.fields_by_number.get(n)
        if f is None:
            raise ValueError(f"view delta: {descriptor.name} has no field {n} to change")
        fields.append(f)
    return fields


def apply_view_delta(base, delta):
    """The view `delta` describes, built from `base` (left unchanged). ValueError when the
    delta names a field this reader's View or Position does not have."""
    fields = _resolve(base.DESCRIPTOR, delta.fields, _POSITION_FIELD)
    position_fields = _resolve(base.position.DESCRIPTOR, delta.position_fields)
    view = type(base)()
    view.CopyFrom(base)
    for f in fields:
        _replace(view, delta.changed, f)
    for f in position_fields:
        _replace(view.position, delta.changed.position, f)
    return view
