"""The ROS 2 message definitions this tool knows without the bag's own (a bag recorded by
rosbag2 Iron or newer stores the definitions of its topics, which are then used instead), in the
.msg language of their packages (common_interfaces, rcl_interfaces, mavros_msgs)."""
from .cdr import parse_msg

MSG = {
    "builtin_interfaces/Time": "int32 sec\nuint32 nanosec",
    "builtin_interfaces/Duration": "int32 sec\nuint32 nanosec",
    "std_msgs/Header": "builtin_interfaces/Time stamp\nstring frame_id",
    "std_msgs/Float64": "float64 data",
    "std_msgs/MultiArrayDimension": "string label\nuint32 size\nuint32 stride",
    "std_msgs/MultiArrayLayout": "MultiArrayDimension[] dim\nuint32 data_offset",
    "std_msgs/Float64MultiArray": "MultiArrayLayout layout\nfloat64[] data",
    "std_msgs/Float32MultiArray": "MultiArrayLayout layout\nfloat32[] data",
    "geometry_msgs/Point": "float64 x\nfloat64 y\nfloat64 z",
    "geometry_msgs/Vector3": "float64 x\nfloat64 y\nfloat64 z",
    "geometry_msgs/Quaternion": "float64 x\nfloat64 y\nfloat64 z\nfloat64 w",
    "geometry_msgs/Pose": "Point position\nQuaternion orientation",
    "geometry_msgs/PoseStamped": "std_msgs/Header header\nPose pose",
    "geometry_msgs/PoseWithCovariance": "Pose pose\nfloat64[36] covariance",
    "geometry_msgs/PoseWithCovarianceStamped": "std_msgs/Header header\nPoseWithCovariance pose",
    "geometry_msgs/Twist": "Vector3 linear\nVector3 angular",
    "geometry_msgs/TwistStamped": "std_msgs/Header header\nTwist twist",
    "geometry_msgs/TwistWithCovariance": "Twist twist\nfloat64[36] covariance",
    "geometry_msgs/TwistWithCovarianceStamped": "std_msgs/Header header\nTwistWithCovariance twist",
    "geometry_msgs/Vector3Stamped": "std_msgs/Header header\nVector3 vector",
    "nav_msgs/Odometry": ("std_msgs/Header header\nstring child_frame_id\n"
                          "geometry_msgs/PoseWithCovariance pose\ngeometry_msgs/TwistWithCovariance twist"),
    "sensor_msgs/Imu": ("std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n"
                        "geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\n"
                        "geometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance"),
    "sensor_msgs/FluidPressure": "std_msgs/Header header\nfloat64 fluid_pressure\nfloat64 variance",
    # mavros 2 (ROS 2): 18 channels, as MAVLink's RC_CHANNELS_OVERRIDE; 0 releases a channel,
    # 65535 leaves it unchanged. mavros 1 had uint16[8]: a bag storing that definition is read by it.
    "mavros_msgs/OverrideRCIn": "uint16 CHAN_RELEASE=0\nuint16 CHAN_NOCHANGE=65535\nuint16[18] channels",
    "mavros_msgs/RCIn": "std_msgs/Header header\nuint8 rssi\nuint16[] channels",
    "mavros_msgs/RCOut": "std_msgs/Header header\nuint16[] channels",
}


def builtin_definitions():
    return {name: parse_msg(text, name, "built-in definitions") for name, text in MSG.items()}
