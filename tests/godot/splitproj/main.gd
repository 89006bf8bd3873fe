extends Node2D
# adds a split view (a Viewport) to the root, as split-screen games do; counts the root's viewports

var viewports := 0


func _ready():
	var view := Viewport.new()
	view.name = "Split"
	get_tree().get_root().call_deferred("add_child", view)


func _process(_delta):
	viewports = 0
	for c in get_tree().get_root().get_children():
		if c is Viewport:
			viewports += 1
