extends Node2D
# walks with Godot's default ui_left / ui_right


func _process(_delta):
	if Input.is_action_pressed("ui_right"):
		position.x += 2
	elif Input.is_action_pressed("ui_left"):
		position.x -= 2
