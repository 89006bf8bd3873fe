extends Node
# counts the presses of "jump" that _process sees as just pressed

var presses := 0


func _process(_delta):
	if Input.is_action_just_pressed("jump"):
		presses += 1
