program control
  integer, parameter :: n = 100
  real :: a(n), b(n), c(n), t
  integer :: i, j, k
  a = 1.0
  b = 2.0
  c = 0.0
  do i = 1, n
    a(i) = b(i) + 1.0
    if (b(i) > 5.0) exit
  end do
  do i = 1, n
    if (b(i) < 0.0) cycle
    c(i) = a(i) * 2.0
  end do
  do i = 1, n
    t = a(i) + b(i)
    if (t > 3.0) cycle
    c(i) = t * t
  end do
  outer: do j = 2, n
    do k = 1, n
      if (a(k) > 1.5) cycle outer
      b(j) = b(j) + a(k)
    end do
  end do outer
  l2: do j = 1, n
    do k = 1, n
      if (a(k) > 5.0) exit l2
    end do
  end do l2
  do i = 2, n
    select case (mod(i, 3))
    case (0)
      a(i) = 1.0
    case (1:2)
      c(i) = a(i-1)
    end select
  end do
  do i = 1, n
    select case (i)
    case (:10)
      c(i) = 0.0
    case default
      c(i) = a(i)
    end select
  end do
  print *, sum(a), sum(b), sum(c), t
end program control
