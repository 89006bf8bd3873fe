extends Node2D
# the main scene is the root's only child: get_child(0) and the last child are this node

var checks := 0
var wrong := 0


func _ready():
	_check()


func _process(_delta):
	_check()


func _check():
	checks += 1
	var root = get_tree().get_root()
	var first = root.get_child(0)
	var last = root.get_child(root.get_child_count() - 1)
	if first != self or last != self:
		wrong += 1
		push_error("the root's children are not the main scene alone: first %s, last %s" % [first.name, last.name])
