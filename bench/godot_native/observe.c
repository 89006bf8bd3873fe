/* bench/godot_native_probe.py's native observer for Godot 3 (GDNative, C): the add-on's per-step entity pass
 * (_entities_compact), in C, to measure what native code would save on it. Not part of playtester: the probe makes a
 * copy of the add-on that observes through it (NATIVE_EDITS), checks that the copy's answers are the add-on's, step by
 * step, and times both passes in one Godot process.
 *
 *   observe(nodes: Array, infos: Array) -> [ent: Array, objects: PoolIntArray]
 *     nodes: the entity nodes of this step; infos[k]: [index, where, paths] of nodes[k]: its entity index, where its
 *     position is (0 none, 1 Node2D global_position, 2 Spatial global_transform.origin) and the NodePaths it reads
 *     (":NAME" for each script variable, then the position's). An entity whose values are the same as when it was
 *     last listed (Variant ==, as GDScript's Array ==) is left out; a listed one adds its index, its variables'
 *     values as the add-on's _plain gives them (null, bool, int, float, String as they are; Vector2 [x, y]; Vector3
 *     [x, y, z]; any other type null) and its position (x, y; x, z for 3D) to ent. An Object value goes into ent as
 *     it is and its place into objects: the add-on turns it into a name (it knows what a valid Node is).
 *   forget(indices: Array = none) -> void: those entities' last listed values dropped (they left: listed again when
 *     they come back, as GDScript's pass does), or every entity's (at a reset).
 *
 * PlaytesterProbe, beside it: ent_json(list) -> String, the list (numbers, bools, [x, y] lists; anything else as
 * null) as JSON, doubles as %.17g; ent_walk(list) -> int, the same walk over the list's Variants with no formatting
 * (the C API's own cost): the answer's JSON, native.
 *
 * Only the Godot 3.2 GDNative core API 1.0 and NativeScript 1.0 are used. */
#include <gdnative_api_struct.gen.h>
#include <stdio.h>
#include <stdlib.h>

static const godot_gdnative_core_api_struct *api = NULL;
static const godot_gdnative_ext_nativescript_api_struct *nsapi = NULL;
static godot_method_bind *get_indexed = NULL; /* Object.get_indexed(NodePath) */
static char *buf = NULL; /* PlaytesterProbe's JSON text */
static size_t cap = 0;

typedef struct {
	godot_variant sig; /* the values last listed (an Array), when set */
	int set;
} Slot;

typedef struct {
	Slot *slots; /* by entity index (indices are never reused on a connection) */
	int n;
} Observer;

void GDN_EXPORT godot_gdnative_init(godot_gdnative_init_options *o) {
	api = o->api_struct;
	for (unsigned i = 0; i < api->num_extensions; i++)
		if (api->extensions[i]->type == GDNATIVE_EXT_NATIVESCRIPT)
			nsapi = (const godot_gdnative_ext_nativescript_api_struct *)api->extensions[i];
}

void GDN_EXPORT godot_gdnative_terminate(godot_gdnative_terminate_options *o) {
	(void)o;
	free(buf);
	buf = NULL;
	cap = 0;
	api = NULL;
	nsapi = NULL;
}

static void forget_all(Observer *ob) {
	for (int i = 0; i < ob->n; i++)
		if (ob->slots[i].set)
			api->godot_variant_destroy(&ob->slots[i].sig);
	free(ob->slots);
	ob->slots = NULL;
	ob->n = 0;
}

static void *create_probe(godot_object *inst, void *md) {
	(void)inst;
	(void)md;
	return NULL;
}

static void destroy_probe(godot_object *inst, void *md, void *ud) {
	(void)inst;
	(void)md;
	(void)ud;
}

static void *create(godot_object *inst, void *md) {
	(void)inst;
	(void)md;
	return calloc(1, sizeof(Observer));
}

static void destroy(godot_object *inst, void *md, void *ud) {
	(void)inst;
	(void)md;
	forget_all((Observer *)ud);
	free(ud);
}

static Slot *slot(Observer *ob, int index) {
	if (index < 0)
		return NULL;
	if (index >= ob->n) {
		int n = ob->n ? ob->n : 16;
		while (n <= index)
			n *= 2;
		Slot *s = realloc(ob->slots, sizeof(Slot) * (size_t)n);
		if (!s)
			return NULL;
		for (int i = ob->n; i < n; i++)
			s[i].set = 0;
		ob->slots = s;
		ob->n = n;
	}
	return &ob->slots[index];
}

static void append_real(godot_array *a, double x) {
	godot_variant v;
	api->godot_variant_new_real(&v, x);
	api->godot_array_append(a, &v);
	api->godot_variant_destroy(&v);
}

static void append_int(godot_array *a, int64_t x) {
	godot_variant v;
	api->godot_variant_new_int(&v, x);
	api->godot_array_append(a, &v);
	api->godot_variant_destroy(&v);
}

/* a variable's value as the add-on's _plain gives it (objects excepted: appended as they are, their place noted) */
static void append_plain(godot_array *ent, const godot_variant *v, godot_pool_int_array *objects) {
	switch (api->godot_variant_get_type(v)) {
		case GODOT_VARIANT_TYPE_NIL:
		case GODOT_VARIANT_TYPE_BOOL:
		case GODOT_VARIANT_TYPE_INT:
		case GODOT_VARIANT_TYPE_REAL:
		case GODOT_VARIANT_TYPE_STRING:
			api->godot_array_append(ent, v);
			return;
		case GODOT_VARIANT_TYPE_VECTOR2: {
			godot_vector2 p = api->godot_variant_as_vector2(v);
			godot_array xy;
			api->godot_array_new(&xy);
			append_real(&xy, api->godot_vector2_get_x(&p));
			append_real(&xy, api->godot_vector2_get_y(&p));
			godot_variant w;
			api->godot_variant_new_array(&w, &xy);
			api->godot_array_append(ent, &w);
			api->godot_variant_destroy(&w);
			api->godot_array_destroy(&xy);
			return;
		}
		case GODOT_VARIANT_TYPE_VECTOR3: {
			godot_vector3 p = api->godot_variant_as_vector3(v);
			godot_array xyz;
			api->godot_array_new(&xyz);
			append_real(&xyz, api->godot_vector3_get_axis(&p, GODOT_VECTOR3_AXIS_X));
			append_real(&xyz, api->godot_vector3_get_axis(&p, GODOT_VECTOR3_AXIS_Y));
			append_real(&xyz, api->godot_vector3_get_axis(&p, GODOT_VECTOR3_AXIS_Z));
			godot_variant w;
			api->godot_variant_new_array(&w, &xyz);
			api->godot_array_append(ent, &w);
			api->godot_variant_destroy(&w);
			api->godot_array_destroy(&xyz);
			return;
		}
		case GODOT_VARIANT_TYPE_OBJECT:
			api->godot_pool_int_array_append(objects, api->godot_array_size(ent));
			api->godot_array_append(ent, v);
			return;
		default: {
			godot_variant nil;
			api->godot_variant_new_nil(&nil);
			api->godot_array_append(ent, &nil);
			api->godot_variant_destroy(&nil);
		}
	}
}

static godot_variant observe(godot_object *inst, void *md, void *ud, int argc, godot_variant **args) {
	(void)inst;
	(void)md;
	Observer *ob = (Observer *)ud;
	godot_variant out;
	if (argc != 2 || api->godot_variant_get_type(args[0]) != GODOT_VARIANT_TYPE_ARRAY ||
			api->godot_variant_get_type(args[1]) != GODOT_VARIANT_TYPE_ARRAY) {
		api->godot_variant_new_nil(&out); /* the add-on goes back to its GDScript pass */
		return out;
	}
	godot_array nodes = api->godot_variant_as_array(args[0]);
	godot_array infos = api->godot_variant_as_array(args[1]);
	godot_array ent;
	api->godot_array_new(&ent);
	godot_pool_int_array objects;
	api->godot_pool_int_array_new(&objects);
	int count = api->godot_array_size(&nodes);
	int ok = api->godot_array_size(&infos) == count;
	for (int k = 0; ok && k < count; k++) {
		godot_variant nv = api->godot_array_get(&nodes, k);
		godot_variant iv = api->godot_array_get(&infos, k);
		godot_object *node = api->godot_variant_get_type(&nv) == GODOT_VARIANT_TYPE_OBJECT ?
				api->godot_variant_as_object(&nv) : NULL;
		godot_array info;
		api->godot_array_new(&info);
		if (api->godot_variant_get_type(&iv) == GODOT_VARIANT_TYPE_ARRAY) {
			api->godot_array_destroy(&info);
			info = api->godot_variant_as_array(&iv);
		}
		if (node == NULL || api->godot_array_size(&info) != 3) {
			ok = 0;
		} else {
			godot_variant v0 = api->godot_array_get(&info, 0), v1 = api->godot_array_get(&info, 1),
						  v2 = api->godot_array_get(&info, 2);
			int index = (int)api->godot_variant_as_int(&v0);
			int where = (int)api->godot_variant_as_int(&v1);
			godot_array paths = api->godot_variant_as_array(&v2);
			int np = api->godot_array_size(&paths);
			godot_array sig;
			api->godot_array_new(&sig);
			for (int p = 0; p < np; p++) {
				godot_variant pv = api->godot_array_get(&paths, p);
				godot_node_path path = api->godot_variant_as_node_path(&pv);
				godot_variant value;
				api->godot_variant_new_nil(&value);
				const void *call_args[1] = {&path};
				api->godot_method_bind_ptrcall(get_indexed, node, call_args, &value);
				api->godot_array_append(&sig, &value);
				api->godot_variant_destroy(&value);
				api->godot_node_path_destroy(&path);
				api->godot_variant_destroy(&pv);
			}
			godot_variant sigv;
			api->godot_variant_new_array(&sigv, &sig);
			Slot *s = slot(ob, index);
			if (s == NULL) {
				ok = 0;
				api->godot_variant_destroy(&sigv);
			} else if (s->set && api->godot_variant_operator_equal(&s->sig, &sigv)) {
				api->godot_variant_destroy(&sigv); /* unchanged since it was last listed: left out */
			} else {
				if (s->set)
					api->godot_variant_destroy(&s->sig);
				s->sig = sigv;
				s->set = 1;
				int m = np - (where == 1 || where == 2 ? 1 : 0);
				append_int(&ent, index);
				for (int i = 0; i < m; i++) {
					godot_variant vi = api->godot_array_get(&sig, i);
					append_plain(&ent, &vi, &objects);
					api->godot_variant_destroy(&vi);
				}
				if (m < np) {
					godot_variant pos = api->godot_array_get(&sig, m);
					if (where == 1) {
						godot_vector2 p = api->godot_variant_as_vector2(&pos);
						append_real(&ent, api->godot_vector2_get_x(&p));
						append_real(&ent, api->godot_vector2_get_y(&p));
					} else {
						godot_vector3 p = api->godot_variant_as_vector3(&pos);
						append_real(&ent, api->godot_vector3_get_axis(&p, GODOT_VECTOR3_AXIS_X));
						append_real(&ent, api->godot_vector3_get_axis(&p, GODOT_VECTOR3_AXIS_Z));
					}
					api->godot_variant_destroy(&pos);
				}
			}
			api->godot_array_destroy(&sig);
			api->godot_array_destroy(&paths);
			api->godot_variant_destroy(&v0);
			api->godot_variant_destroy(&v1);
			api->godot_variant_destroy(&v2);
		}
		api->godot_array_destroy(&info);
		api->godot_variant_destroy(&iv);
		api->godot_variant_destroy(&nv);
	}
	if (ok) {
		godot_array pair;
		api->godot_array_new(&pair);
		godot_variant a, b;
		api->godot_variant_new_array(&a, &ent);
		api->godot_variant_new_pool_int_array(&b, &objects);
		api->godot_array_append(&pair, &a);
		api->godot_array_append(&pair, &b);
		api->godot_variant_new_array(&out, &pair);
		api->godot_variant_destroy(&a);
		api->godot_variant_destroy(&b);
		api->godot_array_destroy(&pair);
	} else {
		api->godot_variant_new_nil(&out);
	}
	api->godot_pool_int_array_destroy(&objects);
	api->godot_array_destroy(&ent);
	api->godot_array_destroy(&infos);
	api->godot_array_destroy(&nodes);
	return out;
}

static godot_variant forget(godot_object *inst, void *md, void *ud, int argc, godot_variant **args) {
	(void)inst;
	(void)md;
	Observer *ob = (Observer *)ud;
	if (argc == 1 && api->godot_variant_get_type(args[0]) == GODOT_VARIANT_TYPE_ARRAY) {
		godot_array gone = api->godot_variant_as_array(args[0]);
		for (int i = 0; i < api->godot_array_size(&gone); i++) {
			godot_variant v = api->godot_array_get(&gone, i);
			int index = (int)api->godot_variant_as_int(&v);
			if (index >= 0 && index < ob->n && ob->slots[index].set) {
				api->godot_variant_destroy(&ob->slots[index].sig);
				ob->slots[index].set = 0;
			}
			api->godot_variant_destroy(&v);
		}
		api->godot_array_destroy(&gone);
	} else {
		forget_all(ob);
	}
	godot_variant out;
	api->godot_variant_new_nil(&out);
	return out;
}

/* ---- PlaytesterProbe: the answer's list as JSON, and the same walk with no formatting */
static void need(size_t len, size_t more) {
	if (len + more + 1 > cap) {
		cap = (len + more + 1) * 2;
		buf = realloc(buf, cap);
	}
}

static size_t write_list(const godot_array *list, size_t len) {
	int size = api->godot_array_size(list);
	need(len, 2);
	buf[len++] = '[';
	for (int i = 0; i < size; i++) {
		need(len, 40);
		if (i)
			buf[len++] = ',';
		godot_variant v = api->godot_array_get(list, i);
		switch (api->godot_variant_get_type(&v)) {
			case GODOT_VARIANT_TYPE_BOOL:
				len += (size_t)sprintf(buf + len, api->godot_variant_as_bool(&v) ? "true" : "false");
				break;
			case GODOT_VARIANT_TYPE_INT:
				len += (size_t)sprintf(buf + len, "%lld", (long long)api->godot_variant_as_int(&v));
				break;
			case GODOT_VARIANT_TYPE_REAL:
				len += (size_t)sprintf(buf + len, "%.17g", api->godot_variant_as_real(&v));
				break;
			case GODOT_VARIANT_TYPE_ARRAY: {  /* a Vector2 variable, as the add-on's _plain gives it: [x, y] */
				godot_array inner = api->godot_variant_as_array(&v);
				len = write_list(&inner, len);
				api->godot_array_destroy(&inner);
				break;
			}
			default:
				len += (size_t)sprintf(buf + len, "null");
		}
		api->godot_variant_destroy(&v);
	}
	need(len, 1);
	buf[len++] = ']';
	return len;
}

static godot_variant ent_json(godot_object *inst, void *md, void *ud, int n, godot_variant **args) {
	(void)inst; (void)md; (void)ud; (void)n;
	godot_array list = api->godot_variant_as_array(args[0]);
	size_t len = write_list(&list, 0);
	api->godot_array_destroy(&list);
	godot_string s = api->godot_string_chars_to_utf8_with_len(buf, (int)len);
	godot_variant out;
	api->godot_variant_new_string(&out, &s);
	api->godot_string_destroy(&s);
	return out;
}

static godot_variant ent_walk(godot_object *inst, void *md, void *ud, int n, godot_variant **args) {
	(void)inst; (void)md; (void)ud; (void)n;
	godot_array list = api->godot_variant_as_array(args[0]);
	int size = api->godot_array_size(&list);
	double sum = 0;
	for (int i = 0; i < size; i++) {
		godot_variant v = api->godot_array_get(&list, i);
		if (api->godot_variant_get_type(&v) == GODOT_VARIANT_TYPE_REAL)
			sum += api->godot_variant_as_real(&v);
		api->godot_variant_destroy(&v);
	}
	api->godot_array_destroy(&list);
	godot_variant out;
	api->godot_variant_new_int(&out, size + (sum != sum));  /* the sum is read, so the walk is not optimized away */
	return out;
}

void GDN_EXPORT godot_nativescript_init(void *handle) {
	get_indexed = api->godot_method_bind_get_method("Object", "get_indexed");
	godot_instance_create_func c = {create, NULL, NULL};
	godot_instance_destroy_func d = {destroy, NULL, NULL};
	godot_method_attributes a = {GODOT_METHOD_RPC_MODE_DISABLED};
	nsapi->godot_nativescript_register_class(handle, "PlaytesterObserver", "Reference", c, d);
	godot_instance_method o = {observe, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterObserver", "observe", a, o);
	godot_instance_method f = {forget, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterObserver", "forget", a, f);
	godot_instance_create_func pc = {create_probe, NULL, NULL};
	godot_instance_destroy_func pd = {destroy_probe, NULL, NULL};
	nsapi->godot_nativescript_register_class(handle, "PlaytesterProbe", "Reference", pc, pd);
	godot_instance_method j = {ent_json, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterProbe", "ent_json", a, j);
	godot_instance_method w = {ent_walk, NULL, NULL};
	nsapi->godot_nativescript_register_method(handle, "PlaytesterProbe", "ent_walk", a, w);
}
