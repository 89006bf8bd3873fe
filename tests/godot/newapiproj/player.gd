extends Node2D
# moves left and right with Input.get_axis (Godot 3.4+)

const SPEED := 120.0


func _physics_process(delta):
	position.x += Input.get_axis("ui_left", "ui_right") * SPEED * delta
