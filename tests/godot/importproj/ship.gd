extends Sprite
# Holding move_right moves the ship right; `width` is what the imported texture says (16 once imported).

var width := 0


func _ready():
	width = texture.get_width() if texture else -1


func _physics_process(_delta):
	if Input.is_action_pressed("move_right"):
		position.x += 2
