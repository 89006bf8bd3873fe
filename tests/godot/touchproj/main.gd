extends Node2D
# counts screen touches (pressed) and where the last one was

var touches := 0
var releases := 0
var touch_x := -1.0
var touch_y := -1.0


func _input(event):
	if event is InputEventScreenTouch:
		if event.pressed:
			touches += 1
			touch_x = event.position.x
			touch_y = event.position.y
		else:
			releases += 1
